/**
 * A set of non-negative integers for one query (a few thousand ranks at most): open addressing
 * in an Int32Array that doubles when half full, far cheaper than a Set<number> at this size.
 */
export class IntSet {
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1024) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n).fill(-1);
    this.mask = n - 1;
  }

  has(value: number): boolean {
    let i = Math.imul(value, 0x9e3779b1) & this.mask;
    for (;;) {
      const v = this.slots[i];
      if (v === value) return true;
      if (v === -1) return false;
      i = (i + 1) & this.mask;
    }
  }

  /** Adds `value`; false when it was already there. */
  add(value: number): boolean {
    let i = Math.imul(value, 0x9e3779b1) & this.mask;
    for (;;) {
      const v = this.slots[i];
      if (v === value) return false;
      if (v === -1) break;
      i = (i + 1) & this.mask;
    }
    this.slots[i] = value;
    if (++this.size * 2 > this.slots.length) this.grow();
    return true;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    this.size = 0;
    for (const v of old) if (v !== -1) this.add(v);
  }
}
