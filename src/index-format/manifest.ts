import type { ShardKind } from './constants.js';

/** One shard file of a snapshot as the manifest lists it. */
export interface ManifestShard {
  /** File name inside the snapshot directory. */
  readonly file: string;
  readonly kind: ShardKind;
  /** Logical name: a record table (`songs`), key table (`song.isrc`) or array table (`orders`). */
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
  /** In a segmented snapshot, the index in `segments` of the segment it belongs to (absent: 0). */
  readonly segment?: number;
}

/**
 * One segment of a segmented snapshot (docs/segments.md): the base, then deltas in order. Each
 * segment's shards carry its build id and its records its own msgpackr structures.
 */
export interface ManifestSegment {
  readonly role: 'base' | 'delta';
  readonly buildId: string;
  readonly structures: unknown[];
}

/** A delta's array table of the global ordinals it holds, one column per type (ascending). */
export const SEGMENT_HELD_TABLE = 'segment.held';
/** A delta's array table of the global ordinals it takes out of service, one column per type. */
export const SEGMENT_REMOVED_TABLE = 'segment.removed';
/**
 * The newest delta's array table of the order patches: per type and sort, `<type>.<sort>.ordinals`
 * (every resource the deltas hold, in that order) and `<type>.<sort>.at` (each one's insertion point
 * in the base's order).
 */
export const SEGMENT_ORDERS_TABLE = 'segment.orders';

export interface ManifestSource {
  readonly file: string;
  readonly bytes: number;
  readonly rows: number;
  readonly sha256: string;
}

export interface Manifest {
  readonly format: 'omm-snapshot';
  readonly formatVersion: string;
  readonly buildId: string;
  readonly compiler: string;
  readonly counts: Readonly<Record<string, number>>;
  readonly sources: readonly ManifestSource[];
  readonly shards: readonly ManifestShard[];
  /** msgpackr shared structures of every record table. */
  readonly structures: unknown[];
  /** Settings the search index was built with, so the reader rebuilds the same encoder. */
  readonly search: Readonly<Record<string, unknown>>;
  /** Rows dropped by --skip-invalid (0 without it). */
  readonly rejectedRows: number;
  /** Pre-rendered default views of each resource, and the renderer version that wrote them. */
  readonly views?: { readonly version: string; readonly tables: readonly string[] };
  /**
   * A takedown snapshot (omm takedown): the compiled build whose shards it shares, hard-linked
   * from that build's directory and carrying its build id, beside its own manifest and deletes
   * set (array table DELETES_TABLE).
   */
  readonly baseBuildId?: string;
  /** What the deletes set takes out of `counts` (songs, albums, artists, stations, files, lyrics). */
  readonly deletes?: Readonly<Record<string, number>>;
  /** The raw catalog's change journal position when it was compiled (raw-format.md); absent without a journal. */
  readonly changes?: number;
  /**
   * A segmented snapshot (docs/segments.md): its base and deltas, in order. `shards` lists every
   * segment's shards, each with its `segment`; `structures` is the base's.
   */
  readonly segments?: readonly ManifestSegment[];
}

/** The array table of a snapshot's deletes set: `song`, `album`, `artist`, each sorted ordinals. */
export const DELETES_TABLE = 'deletes';

/** The name of the manifest shard inside a snapshot directory. */
export const MANIFEST_FILE = 'manifest.omm';
/** The pointer file inside a dist directory naming the snapshot in service. */
export const CURRENT_FILE = 'current';
/** Where snapshots live inside a dist directory. */
export const SNAPSHOTS_DIR = 'snapshots';
