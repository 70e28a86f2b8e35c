import type { Catalog } from '../catalog/catalog.js';
import type { CatalogType } from '../catalog/catalog-ids.js';
import { matchResource } from '../search/match/matcher.js';
import { searchCatalog, searchIndexesOf } from '../search/catalog-search.js';

export interface WarmUpOptions {
  /** Songs whose searches and matches are run (spread over the catalog); default 64. */
  readonly songs?: number;
  /** The longest the warm-up works before it lets the event loop turn; default 1 ms. */
  readonly sliceMs?: number;
  /** Asked between slices: true stops the warm-up (the catalog is leaving service). */
  readonly cancelled?: () => boolean;
}

export interface WarmUpReport {
  readonly ms: number;
  /** Bitmaps the search indexes keep afterwards. */
  readonly bitmaps: number;
  readonly queries: number;
  readonly completed: boolean;
}

const SEARCH_TYPES: readonly CatalogType[] = ['song', 'album', 'artist'];

/**
 * Does ahead the work a snapshot's first searches and matches would otherwise do in their own
 * time: the search indexes' first reads (their pages verified, a MiB at a time; their sampled
 * names and terms), their bitmaps of common words (SearchIndex.bitmap), and searches and matches
 * of some of the catalog's own songs, which compiles the engine's and the matcher's code and
 * maps the pages they read. It works in slices of about `sliceMs` and lets the event loop turn
 * between them, so a server warming a snapshot keeps answering. Answers do not change: bitmaps
 * only make the same tests cheaper. The reloader warms a new snapshot before swapping it in; the
 * first snapshot is not warmed, since doing it while the first connections arrived held them
 * back (docs/operations.md#swapping-snapshots-without-downtime).
 */
export async function warmUp(cat: Catalog, options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const started = performance.now();
  const sliceMs = options.sliceMs ?? 1;
  let queries = 0;
  const tasks: (() => void)[] = [];
  for (const type of SEARCH_TYPES) {
    for (const index of searchIndexesOf(cat, type)) {
      tasks.push(...index.preparationSteps());
      // The bitmaps are queued (after the queries) by a step of their own: listing a large index's
      // terms takes a few milliseconds itself.
      tasks.push(() => {
        for (const id of index.bitmapTerms()) tasks.push(() => void index.bitmap(id));
      });
    }
  }
  const songs = cat.count('song');
  const wanted = Math.min(songs, options.songs ?? 64);
  for (let i = 0; i < wanted; i++) {
    const ordinal = Math.floor((i * songs) / wanted);
    const song = () => cat.song(ordinal);
    const artist = () => song().artistNames.join(' & ');
    const run = (query: () => unknown) => () => {
      query();
      queries++;
    };
    tasks.push(
      run(() => searchCatalog(cat, 'song', song().name, { need: 10 })),
      run(() => searchCatalog(cat, 'song', `${song().name} ${song().artistNames[0] ?? ''}`, { need: 10 })),
      run(() => searchCatalog(cat, 'song', song().name.split(' ')[0], { need: 10 })),
      run(() => matchResource(cat, 'song', { name: song().name, artist: artist() })),
      run(() => matchResource(cat, 'song', { name: `${song().name}x`, artist: artist() })),
    );
  }
  const report = (completed: boolean): WarmUpReport => ({
    ms: Math.round(performance.now() - started),
    bitmaps: SEARCH_TYPES.reduce((n, type) => n + searchIndexesOf(cat, type).reduce((m, index) => m + index.bitmapsKept, 0), 0),
    queries,
    completed,
  });
  let next = 0;
  while (next < tasks.length) {
    if (options.cancelled?.()) return report(false);
    const sliceStart = performance.now();
    while (next < tasks.length && performance.now() - sliceStart < sliceMs) tasks[next++]();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return report(true);
}
