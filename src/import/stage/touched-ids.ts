import type { StageSorterName } from './stage-state.js';

/**
 * The ids an import applied to a previous one (--into) touches, per stage sorter: what it
 * delivers, and what its changes refer to (the songs and artists an updated album gave up or
 * took on). Held in memory while there are at most `limit` in all; past that the import forgets
 * them and applies the delivery to the whole state, as a full merge (`overflowed`).
 */
export class TouchedIds {
  readonly albums = new Set<string>();
  readonly songs = new Set<string>();
  readonly artists = new Set<string>();
  overflowed = false;
  private count = 0;

  constructor(private readonly limit: number) {}

  add(sorter: StageSorterName, id: string): void {
    if (this.overflowed) return;
    const set = this[sorter];
    if (set.has(id)) return;
    set.add(id);
    if (++this.count > this.limit) {
      this.overflowed = true;
      this.albums.clear();
      this.songs.clear();
      this.artists.clear();
    }
  }

  /** A sorter's ids as UTF-8, sorted as bytes (the order of the stage's keys and files). */
  sorted(sorter: StageSorterName): Buffer[] {
    return [...this[sorter]].map((id) => Buffer.from(id, 'utf8')).sort(Buffer.compare);
  }
}

/** Bytes an id is taken to hold in memory while noted (a short string in a Set, and its buffer when sorted). */
export const TOUCHED_ID_BYTES = 160;
