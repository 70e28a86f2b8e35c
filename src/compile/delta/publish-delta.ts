import { Catalog } from '../../catalog/catalog.js';
import { planDelta, type DeltaPlan } from './delta-plan.js';
import { digest, publishSegment, segmentsOf, type PublishedSegment } from './publish-segment.js';
import { referenceContent } from './reference-content.js';

export interface PublishedDelta extends PublishedSegment {
  readonly plan: DeltaPlan;
}

/**
 * Publishes, in `distDir`, the snapshot `distDir/current` names plus one delta segment that makes
 * it answer as `next` (a full compile of the changed raw catalog) does (publish-segment.ts).
 * Returns null, publishing nothing, when `next` holds no change. The reference the delta compile
 * from the change journal (compile-delta.ts) is checked against.
 */
export function publishDelta(distDir: string, next: Catalog, keep = 3): PublishedDelta | null {
  const prev = Catalog.open(distDir, { searchable: false });
  try {
    segmentsOf(prev);
    const plan = planDelta(prev, next);
    if (Object.values(plan).every((p) => p.held.length === 0 && p.removed.length === 0)) return null;
    const deltaId = digest('omm-delta', prev.snapshot.manifest.buildId, next.buildId);
    const { baseBuildId: _base, deletes: _deletes, buildId: _id, structures: _s, shards: _shards, segments: _segments, ...described } = next.snapshot.manifest;
    const published = publishSegment(distDir, prev, deltaId, referenceContent(prev, plan, next), described, keep);
    return { ...published, plan };
  } finally {
    prev.close();
  }
}
