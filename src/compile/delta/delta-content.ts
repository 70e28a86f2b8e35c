import type { ExploreGroup } from '../../catalog/explore-feed.js';
import type { ViewInterface, ViewType } from '../../catalog/views.js';
import type { ArrayTableWriter } from '../../index-format/tables/array-table.js';
import type { DeltaPlan } from './delta-plan.js';

/**
 * What one delta segment holds, however it was worked out: from a full compile of the changed
 * raw catalog (publish-delta.ts, the reference) or from the change journal and a compile of the
 * changed releases only (compile-delta.ts). The writers (write-delta.ts, delta-search.ts) read
 * nothing else, so both ways write the same kind of segment. `i` is a held index: the i-th
 * ordinal of `plan[type].held`.
 */
export interface DeltaContent {
  readonly plan: DeltaPlan;
  /** The held resource's record bytes, packed with `structures`. */
  recordBytes(type: keyof DeltaPlan, i: number): Uint8Array;
  record(type: keyof DeltaPlan, i: number): Record<string, unknown>;
  /** The held resource's stored default view; null when the snapshot stores none, or when they are to be rendered over the delta's records once written (delta-views.ts). */
  view(iface: ViewInterface, type: ViewType, i: number): Uint8Array | null;
  /** Relationship names this catalog has. */
  readonly relations: readonly string[];
  /** A held source's list, targets as global ordinals. */
  targets(name: string, i: number): ArrayLike<number>;
  /** The key tables the snapshot has (`song.isrc`, ...). */
  readonly keyTables: readonly string[];
  /** The explore feed, whole, in global ordinals. */
  readonly explore: readonly ExploreGroup[];
  /** The order patch of every ordered type (order-patch.ts). */
  readonly orders: ArrayTableWriter;
  /** The held documents of a searchable type, as held indexes in popularity order. */
  byPopularity(type: 'song' | 'album' | 'artist' | 'playlist'): ArrayLike<number>;
  /** The names of the artists credited on a held song or album, in credit order. */
  creditNames(type: 'song' | 'album', i: number): string[];
  /** The record structures the segment's records are packed with (asked once they are all packed). */
  structures(): unknown[][];
}
