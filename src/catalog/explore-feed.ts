import { unpack } from 'msgpackr';
import type { Catalog, ResourceType } from './catalog.js';

/** One group of the explore feed, as the compiler stores it (blob `explore`, section `groups`). */
export interface ExploreGroup {
  readonly id: string;
  readonly title: string;
  readonly type: ResourceType;
  /** Ordinals of the group's resources, in feed order. */
  readonly ordinals: number[];
}

const feeds = new WeakMap<Catalog, ExploreGroup[]>();

/** The explore feed of a snapshot, decoded once per catalog. */
export function exploreGroups(cat: Catalog): ExploreGroup[] {
  let groups = feeds.get(cat);
  if (!groups) {
    // Over segments, the newest segment's feed (each delta stores it whole).
    const segment = cat.segments ? cat.segments.count - 1 : 0;
    const blob = cat.snapshot.blob('explore', segment);
    const section = blob.section('groups');
    groups = unpack(blob.bytes(section.start, section.length)) as ExploreGroup[];
    // Under a deletes set the taken-down are left out of every group.
    if (cat.deletes) groups = groups.map((g) => ({ ...g, ordinals: g.ordinals.filter((o) => !cat.isDeleted(g.type, o)) }));
    feeds.set(cat, groups);
  }
  return groups;
}
