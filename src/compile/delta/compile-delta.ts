import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from '../../catalog/catalog.js';
import type { SegmentType } from '../../catalog/segments.js';
import type { ManifestSource } from '../../index-format/manifest.js';
import { createWorkDir } from '../../index-format/publish.js';
import type { RawFileName } from '../../raw/schema.js';
import { compileCatalog, type CompileOptions } from '../compile.js';
import { CompileError } from '../compile-error.js';
import { buildIdOf } from '../snapshot-manifest.js';
import { sameOrdinals } from '../../index-format/u32.js';
import { deltaClosure } from './closure.js';
import { changedLinks } from './changed-links.js';
import { OwnerRows } from './owner-rows.js';
import { deltaChanges } from './delta-changes.js';
import { DeltaNext } from './delta-next.js';
import type { DeltaPlan, TypePlan } from './delta-plan.js';
import { fastContent } from './fast-content.js';
import { genreLists } from './genre-lists.js';
import { patchArtistsAndPlaylists } from './patched-lists.js';
import { writeIncludedRaw, type IncludedRaw } from './included-raw.js';
import { addInsertionPatches, orderOnceIn, orderPatches, positionsOnceIn, type OrderedType, type PatchInputs } from './insertion-patch.js';
import { nextExplore } from './next-explore.js';
import { COMPILED_TYPES, numberNext } from './next-numbering.js';
import { digest, publishSegment, segmentsOf, type PublishedSegment } from './publish-segment.js';
import { scanRawFile } from './raw-rows.js';
import { stationLists, type StationLists } from './station-lists.js';
import type { SortableRecord } from './sort-order.js';

export interface DeltaCompileOptions {
  readonly rawDir: string;
  /** The dist directory whose `current` snapshot the delta is added to. */
  readonly outDir: string;
  readonly keep?: number;
  /** Memory budget of the compile of the candidates, in bytes. */
  readonly memoryBytes?: number;
  /** Told as each phase ends, with its seconds. */
  readonly onPhase?: (phase: string, seconds: number) => void;
}

export interface DeltaCompileResult extends PublishedSegment {
  /** Resources held and taken out, per type. */
  readonly held: Record<SegmentType, number>;
  readonly removed: Record<SegmentType, number>;
  /** Songs, albums and artists the compile of the candidates read (candidates and their neighbours). */
  readonly compiledSongs: number;
}

const WORK_PREFIX = '.omm-delta-';

/**
 * `omm compile --delta` (docs/segments.md): the deliveries the raw catalog's change journal
 * records since the snapshot in service was compiled, published as one delta segment over it,
 * reading the delivery's resources and their neighbours rather than the catalog. Null, publishing
 * nothing, when the journal records no change since. A failure publishes nothing and leaves the
 * snapshot in service as it was.
 */
export async function compileDelta(options: DeltaCompileOptions): Promise<DeltaCompileResult | null> {
  const prev = Catalog.open(options.outDir, { searchable: false });
  const work = createWorkDir(options.outDir, WORK_PREFIX);
  const phase = timer(options.onPhase);
  try {
    segmentsOf(prev);
    const changes = deltaChanges(options.rawDir, prev.snapshot.manifest.changes);
    if (Object.values(changes.changed).every((m) => m.size === 0)) return null;
    const byOwner = new OwnerRows(options.rawDir);
    const links = await phase('changed links', () => changedLinks(options.rawDir, changes, byOwner));
    const closure = await phase('closure', () => deltaClosure(prev, changes, links));
    mkdirSync(join(work, 'raw'));
    const included = await phase('candidates raw', () => writeIncludedRaw(options.rawDir, join(work, 'raw'), closure.included, byOwner));
    const { sources } = included;
    const views = prev.snapshot.manifest.views !== undefined;
    const knownGenres = Array.from({ length: prev.records('genre').count }, (_, g) => prev.records('genre').get<{ name: string }>(g).name);
    // No views and no search index: the delta's are made from its records once they are written
    // (delta-views.ts, delta-search.ts).
    await phase('candidates compile', () =>
      compileIncluded(join(work, 'raw'), join(work, 'dist'), { views: false, search: false, memoryBytes: options.memoryBytes, knownGenres }, included),
    );
    const withoutOwnGenres = await artistsWithoutOwnGenres(join(work, 'raw'));
    const mini = Catalog.open(join(work, 'dist'), { searchable: false });
    try {
      const next = new DeltaNext(prev, mini, numberNext(prev, mini, closure));
      const parts = await phase('whole-catalog parts', async () => wholeCatalogParts(next, sources, withoutOwnGenres));
      const nextBuild = buildIdOf(
        new Map(sources.map((s) => [s.file.slice(0, -'.csv'.length) as RawFileName, { bytes: s.bytes, sha256: s.sha256 }])),
        false,
        views,
      );
      const deltaId = digest('omm-delta', prev.snapshot.manifest.buildId, nextBuild);
      const { buildId: _b, structures: _s, shards: _sh, segments: _seg, changes: _c, ...described } = mini.snapshot.manifest;
      const manifest = {
        ...described,
        views: prev.snapshot.manifest.views,
        counts: nextCounts(prev, parts),
        sources,
        rejectedRows: 0,
        changes: changes.position,
      };
      const published = await phase('publish', async () => publishSegment(options.outDir, prev, deltaId, fastContent(parts), manifest, options.keep ?? 3));
      const tally = (part: 'held' | 'removed') =>
        Object.fromEntries(Object.entries(parts.plan).map(([type, p]) => [type, p[part].length])) as Record<SegmentType, number>;
      return { ...published, held: tally('held'), removed: tally('removed'), compiledSongs: mini.records('song').count };
    } finally {
      mini.close();
    }
  } finally {
    prev.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The artists of the included rows with no genres of their own (theirs are their songs'). */
async function artistsWithoutOwnGenres(rawDir: string): Promise<Set<string>> {
  const out = new Set<string>();
  await scanRawFile(rawDir, 'artists', (row) => {
    if ((row.genres ?? '').trim() === '') out.add(row.id);
  });
  return out;
}

/** Compiles the included rows; a raw issue names the line of the raw catalog it is on. */
async function compileIncluded(
  rawDir: string,
  outDir: string,
  settings: Pick<CompileOptions, 'views' | 'search' | 'memoryBytes' | 'knownGenres'>,
  included: IncludedRaw,
): Promise<void> {
  try {
    await compileCatalog({ rawDir, outDir, ...settings, keep: 1 });
  } catch (err) {
    if (!(err instanceof CompileError)) throw err;
    const issues = err.issues.map((issue) => ({ ...issue, line: included.lines.get(issue.file)?.get(issue.line) ?? issue.line }));
    throw new CompileError(issues, err.totalIssues);
  }
}

type WholeParts = ReturnType<typeof wholeCatalogParts>;

/** Orders, genres, stations and the explore feed once the delta is in, and the plan of what it holds. */
function wholeCatalogParts(next: DeltaNext, sources: readonly ManifestSource[], withoutOwnGenres: ReadonlySet<string>) {
  const { prev } = next;
  const removed = Object.fromEntries(COMPILED_TYPES.map((t) => [t, next.numbering[t].removed])) as Record<(typeof COMPILED_TYPES)[number], number[]>;
  const served = servedOnceIn(next, removed);
  const patchInputs = {} as Record<OrderedType, PatchInputs>;
  const orders = orderPatches();
  const addOrders = (type: OrderedType) => {
    patchInputs[type] = { held: next.heldOf(type).global, removed: removed[type], record: (g: number) => next.record<SortableRecord>(type, g) };
    addInsertionPatches(prev, type, patchInputs[type], orders);
  };
  // Songs and albums first: the genre and artist lists patched next keep their orders.
  addOrders('song');
  addOrders('album');
  const positions = (type: OrderedType, sort: string) => positionsOnceIn(prev, type, sort, orders.arrays, patchInputs[type]);
  const genres = genreLists(next, next.heldOf('song').global, removed.song, served, positions('song', 'popularity'));
  patchArtistsAndPlaylists(next, removed, genres, withoutOwnGenres, {
    songsByName: positions('song', 'name'),
    albumsNewestFirst: positions('album', '-releaseDate'),
  });
  // Artists and playlists once their lists and records are patched (what the delta holds of them depends on both).
  addOrders('artist');
  addOrders('playlist');
  const order = (type: OrderedType, sort: string) => orderOnceIn(prev, type, sort, orders.arrays, patchInputs[type]);
  const popularity = order('song', 'popularity');
  let rank: Uint32Array | null = null;
  const stations = stationLists({ next, genres, rank: () => (rank ??= popularity.ranks(sizeOnceIn(next, 'song'))), served });
  const explore = nextExplore({
    prev,
    rawGroups: (sources.find((s) => s.file === 'explore_groups.csv')?.rows ?? 0) > 0,
    served: (type, g) => (type === 'genre' ? genres.served(g) : type === 'station' ? true : served(type as 'song', g)),
    order,
    releaseDate: (album) => next.record<{ releaseDate: string | null }>('album', album).releaseDate,
    genres,
    genreStation: (g) => stations.ordinalOf((genres.changed.get(g)?.record ?? prev.records('genre').get<{ stationId: string }>(g)).stationId),
  });
  const heldGenres = [...genres.changed.values()].filter((genre) => genreDiffers(next, genre)).sort((a, b) => a.g - b.g);
  return {
    next,
    plan: planOf(next, removed, heldGenres, genres.removed, stations),
    genres: heldGenres,
    stations: stations.held,
    explore,
    orders: orders.writer,
  };
}

function genreDiffers(next: DeltaNext, genre: { g: number; record: unknown; songs: ArrayLike<number> }): boolean {
  const { prev } = next;
  if (genre.g >= prev.records('genre').count) return true;
  if (!sameOrdinals(prev.relation('genre.songs').targetsOf(genre.g), genre.songs)) return true;
  return JSON.stringify(prev.records('genre').get(genre.g)) !== JSON.stringify(genre.record);
}

function planOf(
  next: DeltaNext,
  removed: Record<(typeof COMPILED_TYPES)[number], number[]>,
  genres: { g: number }[],
  removedGenres: number[],
  stations: StationLists,
): DeltaPlan {
  const plan = {} as DeltaPlan;
  for (const type of COMPILED_TYPES) {
    const held = next.heldOf(type);
    plan[type] = { toGlobal: next.numbering[type].toGlobal, held: held.global, heldFrom: held.mini, removed: Uint32Array.from(removed[type]) };
  }
  const derived = (held: number[], out: number[]): TypePlan => ({
    toGlobal: new Uint32Array(0),
    held: Uint32Array.from(held),
    heldFrom: Uint32Array.from(held, (_, i) => i),
    removed: Uint32Array.from(out),
  });
  plan.genre = derived(
    genres.map((g) => g.g),
    removedGenres,
  );
  plan.station = derived(
    stations.held.map((s) => s.g),
    stations.removed,
  );
  return plan;
}

/** Whether a song, album or artist is served once the delta is in. */
function servedOnceIn(next: DeltaNext, removed: Record<string, number[]>) {
  const out = Object.fromEntries(Object.entries(removed).map(([t, list]) => [t, new Set(list)]));
  return (type: 'song' | 'album' | 'artist' | 'playlist', g: number): boolean => {
    if (out[type]?.has(g)) return false;
    if (next.miniOf(type, g) >= 0) return true;
    return g < next.prev.records(type).count && !next.prev.isDeleted(type, g);
  };
}

/** How many global ordinals a type has once the delta is in. */
function sizeOnceIn(next: DeltaNext, type: 'song'): number {
  const held = next.heldOf(type).global;
  return Math.max(next.prev.records(type).count, held.length > 0 ? held[held.length - 1] + 1 : 0);
}

/** Counts as a full compile's manifest gives them. */
function nextCounts(prev: Catalog, parts: WholeParts): Record<string, number> {
  const servedIn = (type: SegmentType) => (prev.segments ? prev.segments.served(type) : prev.records(type).count);
  const fresh = (type: SegmentType) => Array.from(parts.plan[type].held).filter((g) => g >= prev.records(type).count).length;
  const count = (type: SegmentType) => servedIn(type) + fresh(type) - parts.plan[type].removed.length;
  return {
    ...prev.snapshot.manifest.counts,
    songs: count('song'),
    albums: count('album'),
    artists: count('artist'),
    playlists: count('playlist'),
    stations: count('station'),
    genres: count('genre'),
    files: count('file'),
    lyrics: count('lyrics'),
    exploreGroups: parts.explore.length,
  };
}

function timer(onPhase: DeltaCompileOptions['onPhase']) {
  return async <T>(name: string, run: () => Promise<T> | T): Promise<T> => {
    const started = process.hrtime.bigint();
    const out = await run();
    onPhase?.(name, Number(process.hrtime.bigint() - started) / 1e9);
    return out;
  };
}
