/**
 * 64-bit hashes of tokens (two independent 32-bit lanes over UTF-16 code units), so the many
 * token occurrences can be sorted and joined as fixed-width numbers while only the far fewer
 * distinct terms go through a sort by bytes. Two distinct terms sharing both lanes happens with
 * a chance of about t^2 / 2^65 for t terms (3e-6 at 10 million); the join checks for it and
 * stops the build (token-join.ts).
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
 * Recently seen terms, in a fixed open-addressing table: a token already here need not be added
 * to the sort of term strings again. Forgetting is harmless (a repeat is dropped when the sorted
 * terms are read), so a table half full is cleared rather than grown, and memory stays bounded
 * whatever the vocabulary. Entries are compared as strings, not only by hash: a token is skipped
 * only when the very same string went to the sort, so two terms sharing a 64-bit hash both reach
 * it and the join notices them.
 */
export class RecentTerms {
  /** Bytes a slot is counted for: its hash, its reference and a short string. */
  static readonly SLOT_BYTES = 64;
  private readonly hashes: Uint32Array;
  private readonly terms: (string | undefined)[];
  private readonly mask: number;
  private count = 0;

  constructor(bytes: number) {
    let capacity = 1024;
    while (capacity * 2 * RecentTerms.SLOT_BYTES <= bytes) capacity *= 2;
    this.hashes = new Uint32Array(capacity);
    this.terms = new Array<string | undefined>(capacity).fill(undefined);
    this.mask = capacity - 1;
  }

  /** Whether `term` (whose first hash lane is `hash`) was seen since the last clearing; remembers it when not. */
  seen(term: string, hash: number): boolean {
    const { hashes, terms, mask } = this;
    let slot = hash & mask;
    for (let held = terms[slot]; held !== undefined; held = terms[slot]) {
      if (hashes[slot] === hash && held === term) return true;
      slot = (slot + 1) & mask;
    }
    if (this.count * 2 >= mask + 1) {
      terms.fill(undefined);
      this.count = 0;
      slot = hash & mask;
    }
    hashes[slot] = hash;
    terms[slot] = term;
    this.count++;
    return false;
  }
}
