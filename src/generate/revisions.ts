import { Prng } from './prng.js';

export type Revision = 'update' | 'purge' | null;

/**
 * Which albums a DDEX delivery revises later: 1 % of them (at least one) get an update with a
 * changed title and 0.5 % (at least one, when there are two albums) a takedown. The albums are
 * drawn by selection sampling from their own PRNG stream (9), one decision per album in album
 * order, so the counts are exact and no list is kept; the takedowns are spread evenly among the
 * chosen albums.
 */
export class RevisionPlan {
  readonly updates: number;
  readonly purges: number;
  private readonly chosen: number;
  private readonly rng: Prng;
  private taken = 0;
  private seen = 0;

  constructor(
    seed: number,
    private readonly albums: number,
  ) {
    this.updates = Math.min(albums, Math.ceil(albums * 0.01));
    this.purges = Math.min(albums - this.updates, Math.ceil(albums * 0.005));
    this.chosen = this.updates + this.purges;
    this.rng = new Prng(seed, 9);
  }

  /** The revision of the next album (call once per album, in order). */
  next(): Revision {
    const left = this.albums - this.seen++;
    if (this.taken >= this.chosen || this.rng.next() * left >= this.chosen - this.taken) return null;
    const j = this.taken++;
    return Math.floor(((j + 1) * this.purges) / this.chosen) > Math.floor((j * this.purges) / this.chosen) ? 'purge' : 'update';
  }
}
