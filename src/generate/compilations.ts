import { withGs1CheckDigit } from '../raw/codes.js';
import type { Namer } from './names.js';
import type { Prng } from './prng.js';

/** A compilation as drawn before any album: its fields and the songs it reuses, by index. */
export interface CompilationPlan {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly upc: string;
  readonly releaseDate: string;
  readonly artworkUrl: string;
  readonly popularity: number;
  readonly artist: number;
  /** Song indices with their track numbers (a song drawn twice leaves its number unused). */
  readonly picks: readonly { readonly song: number; readonly track: number }[];
}

/**
 * Draws every compilation from stream `rc` (its own stream, 7), in the order the generator always
 * drew them. Drawing them before the albums changes no other value, and tells the model which
 * songs' data to keep while the albums go by: only those, never the whole catalog.
 */
export function planCompilations(rc: Prng, namer: Namer, count: number, artistCount: number, songs: number): CompilationPlan[] {
  const plans: CompilationPlan[] = [];
  for (let c = 0; c < count; c++) {
    const id = `comp${c}`;
    const name = `${rc.pick(['Best of', 'Hits', 'Essentials', 'Collection'])} ${c + 1}`;
    const upc = withGs1CheckDigit(`50${String(c).padStart(10, '0')}`);
    const releaseDate = namer.releaseDate(rc, 2000 + (c % 26));
    const popularity = namer.popularity(rc);
    const artist = rc.int(0, artistCount - 1);
    const picks = drawPicks(rc, rc.int(10, 20), songs);
    plans.push({ index: c, id, name, upc, releaseDate, artworkUrl: `https://img.example.com/albums/${id}.jpg`, popularity, artist, picks });
  }
  return plans;
}

/** `tracks` songs drawn from the whole catalog, each a track number; a song drawn twice leaves its number unused. */
export function drawPicks(r: Prng, tracks: number, songs: number): { song: number; track: number }[] {
  const used = new Set<number>();
  const picks: { song: number; track: number }[] = [];
  for (let t = 1; t <= tracks; t++) {
    const song = r.int(0, songs - 1);
    if (used.has(song)) continue;
    used.add(song);
    picks.push({ song, track: t });
  }
  return picks;
}
