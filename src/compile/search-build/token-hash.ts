/**
 * 64-bit hashes of tokens (two independent 32-bit lanes over UTF-16 code units), so the many
 * token occurrences can be sorted and joined as fixed-width numbers while only the far fewer
 * distinct terms go through a sort by bytes. Two distinct terms sharing both lanes is expected
 * about once in 2^64 / t^2 builds of t terms; the build checks for it and stops (term-dictionary.ts).
 */
export function tokenHash(text: string, out: Uint32Array): void {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ Math.imul(c, 0xcc9e2d51), 0x1b873593);
    h2 = (h2 << 13) | (h2 >>> 19);
  }
  // Avalanche both lanes (murmur3's finaliser), so nearby strings spread over the sort's digits.
  out[0] = fmix(h1);
  out[1] = fmix(h2);
}

function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The 64-bit hashes of recently seen terms, in a fixed open-addressing table of typed arrays: a
 * token already here need not be added to the sort of term strings again. Forgetting is
 * harmless (a repeat is dropped when the sorted terms are read), so a table half full is
 * cleared rather than grown, and memory stays at `bytes` whatever the vocabulary.
 */
export class RecentTerms {
  private readonly slots: Uint32Array;
  private readonly mask: number;
  private count = 0;

  constructor(bytes: number) {
    let capacity = 1024;
    while (capacity * 2 * 8 <= bytes) capacity *= 2;
    this.slots = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  /** Whether (h1, h2) was seen since the last clearing; remembers it when not. */
  seen(h1: number, h2: number): boolean {
    if (h1 === 0 && h2 === 0) return false; // the empty slot's value: never remembered
    const slots = this.slots;
    let slot = h1 & this.mask;
    for (;;) {
      const a = slots[slot * 2];
      const b = slots[slot * 2 + 1];
      if (a === h1 && b === h2) return true;
      if (a === 0 && b === 0) break;
      slot = (slot + 1) & this.mask;
    }
    if (this.count * 2 >= this.mask + 1) {
      slots.fill(0);
      this.count = 0;
      slot = h1 & this.mask;
    }
    slots[slot * 2] = h1;
    slots[slot * 2 + 1] = h2;
    this.count++;
    return false;
  }
}
