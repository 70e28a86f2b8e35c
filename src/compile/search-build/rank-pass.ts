import { creditKeyInto, wordSetHash } from '../../index-format/search/search-keys.js';
import type { NumberColumnWriter } from '../spill/columns.js';
import type { FixedSorter } from '../../sort/fixed-sort.js';

/** Term ids by a number: `targets[offsets[i]..offsets[i + 1])` (mapped column files). */
export interface TermLists {
  readonly offsets: Uint32Array;
  readonly targets: Uint32Array;
}

export interface RankPassInputs {
  readonly ordinals: Uint32Array;
  /** Credited artist ordinals by document ordinal, when the type has artists. */
  readonly credits: TermLists | null;
  /** Name term ids by rank (docname.*). */
  readonly docName: TermLists;
  /** Term ids of each artist's name by artist ordinal. */
  readonly artistTerms: TermLists;
}

export interface RankPassOutputs {
  readonly docArtistOffsets: NumberColumnWriter;
  readonly docArtistTargets: NumberColumnWriter;
  /** (term id, rank), added in rank order. */
  readonly postings: FixedSorter;
  /** (word-set or credit key hash, rank, check hash), added in rank order. */
  readonly keys: FixedSorter;
}

/** A Uint32Array that grows; holds one document's term ids at a time. */
class Scratch {
  values = new Uint32Array(64);
  length = 0;

  push(v: number): void {
    if (this.length === this.values.length) {
      const bigger = new Uint32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = v;
  }

  has(v: number, from = 0, to = this.length): boolean {
    for (let i = from; i < to; i++) if (this.values[i] === v) return true;
    return false;
  }
}

/**
 * The pass over ranks once every token has its term id: per document, the term ids of its
 * credited artists (docartist.*: one artist's in its own order, several artists' joined in
 * credit order without repeats), its postings (each term once), and its word-set keys: its name's
 * term ids as a set, that set joined with each credited artist's, and with all of them when there
 * are several, each keyed when it adds to the name's set; and its credit keys.
 */
export function readRanks(inputs: RankPassInputs, out: RankPassOutputs): void {
  const { ordinals, credits, docName, artistTerms } = inputs;
  const artists = new Scratch();
  const names = new Scratch();
  const set = new Scratch();
  const creditKey = new Scratch();
  const key = (r: number) => {
    const sorted = set.values.subarray(0, set.length).sort();
    out.keys.add(wordSetHash(sorted, 0), r, wordSetHash(sorted, 1));
  };
  const copyNames = () => {
    set.length = 0;
    for (let i = 0; i < names.length; i++) set.push(names.values[i]);
  };
  out.docArtistOffsets.push(0);
  let docArtistCount = 0;
  for (let r = 0; r < ordinals.length; r++) {
    names.length = 0;
    for (let k = docName.offsets[r]; k < docName.offsets[r + 1]; k++) names.push(docName.targets[k]);
    artists.length = 0;
    const from = credits ? credits.offsets[ordinals[r]] : 0;
    const to = credits ? credits.offsets[ordinals[r] + 1] : 0;
    for (let c = from; c < to; c++) {
      const a = credits!.targets[c];
      for (let k = artistTerms.offsets[a]; k < artistTerms.offsets[a + 1]; k++) {
        const t = artistTerms.targets[k];
        if (to - from === 1 || !artists.has(t)) artists.push(t);
      }
    }
    for (let i = 0; i < artists.length; i++) out.docArtistTargets.push(artists.values[i]);
    out.docArtistOffsets.push((docArtistCount += artists.length));

    for (let i = 0; i < names.length; i++) out.postings.add(names.values[i], r);
    for (let i = 0; i < artists.length; i++) if (!names.has(artists.values[i])) out.postings.add(artists.values[i], r);

    if (names.length > 0) {
      copyNames();
      key(r);
    }
    for (let c = from; c < to; c++) {
      const a = credits!.targets[c];
      copyNames();
      for (let k = artistTerms.offsets[a]; k < artistTerms.offsets[a + 1]; k++) {
        if (!set.has(artistTerms.targets[k], 0, names.length)) set.push(artistTerms.targets[k]);
      }
      if (set.length > names.length) key(r);
    }
    if (to - from > 1) {
      copyNames();
      for (let i = 0; i < artists.length; i++) if (!set.has(artists.values[i], 0, names.length)) set.push(artists.values[i]);
      if (set.length > names.length) key(r);
    }
    if (names.length > 0) creditKeys(r, names.values.subarray(0, names.length), credits, from, to, artistTerms, out.keys, creditKey);
  }
}

/**
 * The document's credit keys (search-keys.ts, creditKey): one per credited artist with a name of
 * words, each once; `scratch` holds one key at a time.
 */
function creditKeys(
  r: number,
  nameIds: Uint32Array,
  credits: TermLists | null,
  from: number,
  to: number,
  artistTerms: TermLists,
  keys: FixedSorter,
  scratch: Scratch,
): void {
  const added: number[] = [];
  for (let c = from; c < to; c++) {
    const a = credits!.targets[c];
    const artistIds = artistTerms.targets.subarray(artistTerms.offsets[a], artistTerms.offsets[a + 1]);
    if (artistIds.length === 0) continue;
    while (scratch.values.length < nameIds.length + 1 + artistIds.length) scratch.values = new Uint32Array(scratch.values.length * 2);
    const key = scratch.values.subarray(0, creditKeyInto(scratch.values, nameIds, artistIds));
    const hash = wordSetHash(key, 0);
    const check = wordSetHash(key, 1);
    if (added.some((h, i) => i % 2 === 0 && h === hash && added[i + 1] === check)) continue;
    added.push(hash, check);
    keys.add(hash, r, check);
  }
}
