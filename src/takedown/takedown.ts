import { Catalog } from '../catalog/catalog.js';
import { publishTakedown } from './publish-takedown.js';
import { planTakedown, type TakedownPlan } from './resolve-takedown.js';
import { TakedownError } from './takedown-error.js';
import type { TakedownKey } from './takedown-keys.js';

export interface TakedownOptions {
  /** A key that names nothing fails the takedown (E_TAKEDOWN_UNKNOWN) instead of being reported. */
  readonly strict?: boolean;
  /** Snapshots the dist directory keeps (the new one included); default 3, as a compile. */
  readonly keep?: number;
}

export interface TakedownReport {
  /** The snapshot the takedown started from, and the one it published (null when nothing changed). */
  readonly from: string;
  readonly buildId: string | null;
  readonly plan: TakedownPlan;
  /** Bytes the new snapshot wrote: its manifest and deletes set (every other shard is shared). */
  readonly bytesWritten: number;
  readonly ms: number;
}

/**
 * `omm takedown`: takes songs, albums and artists out of service without a compile. Resolves
 * the keys against the snapshot `distDir/current` names, decides the deletes set
 * (resolve-takedown.ts) and publishes a snapshot that shares every shard of that one and adds
 * the set (publish-takedown.ts). A server following the dist directory swaps to it like to any
 * snapshot. Keys that name nothing are reported (`--strict`: refused, nothing published); when
 * every key names what is already taken down, nothing is published.
 */
export function takedown(distDir: string, keys: readonly TakedownKey[], options: TakedownOptions = {}): TakedownReport {
  const started = performance.now();
  if (keys.length === 0) throw new TakedownError('E_TAKEDOWN_EMPTY', 'nothing to take down: give --isrc, --upc, --id, --file or --from');
  const cat = Catalog.open(distDir, { searchable: false, views: false });
  try {
    if (cat.segments) {
      throw new TakedownError(
        'E_TAKEDOWN_SEGMENTS',
        `snapshot ${cat.buildId} is made of ${cat.segments.count} segments: apply the takedown with omm import --into and a delta compile, or compile in full first (docs/segments.md)`,
      );
    }
    const plan = planTakedown(cat, keys);
    if (options.strict && plan.unknown.length > 0) {
      const shown = plan.unknown.slice(0, 10).join(', ');
      throw new TakedownError(
        'E_TAKEDOWN_UNKNOWN',
        `${plan.unknown.length} key(s) name nothing in snapshot ${cat.buildId}: ${shown}${plan.unknown.length > 10 ? ', …' : ''}`,
      );
    }
    const changed = plan.added.song + plan.added.album + plan.added.artist > 0;
    const published = changed ? publishTakedown(distDir, cat.snapshot, plan, options.keep ?? 3) : null;
    return {
      from: cat.buildId,
      buildId: published?.buildId ?? null,
      plan,
      bytesWritten: published?.bytesWritten ?? 0,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    cat.close();
  }
}
