import { join } from 'node:path';
import type { ManifestShard } from '../../index-format/manifest.js';
import { buildSearchIndex } from '../search-build/build-search-index.js';
import type { SearchDocumentFiles } from '../search-index.js';
import { NumberColumnWriter, StringColumnWriter } from '../spill/columns.js';
import { SpillDir } from '../spill/spill-dir.js';
import type { DeltaContent } from './delta-content.js';
import { SEGMENT_TYPES } from '../../catalog/segments.js';

const SEARCH_TYPES = ['song', 'album', 'artist', 'playlist'] as const;
type SearchType = (typeof SEARCH_TYPES)[number];

/** Memory for one delta's search build: its documents are the delivery's, few. */
const BUDGET_BYTES = 64 * 2 ** 20;

/**
 * A delta's search indexes (docs/segments.md, "Search over segments"): per type, an ordinary
 * index (the compile's one writer) of the documents the delta holds, in the popularity
 * order, each document's ordinal its row in the delta (held index), so a search over the
 * segments reads the global ordinal from the delta's held list. No first pages: a delta's
 * documents are few, and the base's pages are merged with them at search time.
 */
export function writeDeltaSearch(distDir: string, staging: string, prefix: string, segment: number, buildId: string, content: DeltaContent): ManifestShard[] {
  const spill = SpillDir.create(distDir);
  try {
    const entries: ManifestShard[] = [];
    for (const type of SEARCH_TYPES) {
      if (content.plan[type].held.length === 0) continue;
      const files = documentFiles(spill, type, content);
      const name = `search.${SEGMENT_TYPES[type]}`;
      const file = `${prefix}${name}.blob`;
      const shard = buildSearchIndex(join(staging, file), buildId, files, spill, BUDGET_BYTES);
      entries.push({ file, kind: shard.kind, name, size: shard.size, sha256: shard.sha256, segment });
    }
    return entries;
  } finally {
    spill.remove();
  }
}

/** The held documents of a type as the column files the search build reads: rows in popularity order, names and credits by row. */
function documentFiles(spill: SpillDir, type: SearchType, content: DeltaContent): SearchDocumentFiles {
  const count = content.plan[type].held.length;
  const ordinals = new NumberColumnWriter(spill.file(`${type}-ordinals`), 'u32');
  for (const row of Array.from(content.byPopularity(type))) ordinals.push(row);
  ordinals.finish();
  const names = new StringColumnWriter(spill.file(`${type}-names`));
  for (let i = 0; i < count; i++) names.push(String(content.record(type, i).name));
  names.finish();
  const files = { type, ordinals: ordinals.path, names: names.path };
  if (type !== 'song' && type !== 'album') return files;
  const offsets = new NumberColumnWriter(spill.file(`${type}-credit-offsets`), 'u32');
  const targets = new NumberColumnWriter(spill.file(`${type}-credit-targets`), 'u32');
  const artistNames = new StringColumnWriter(spill.file(`${type}-artist-names`));
  offsets.push(0);
  for (let i = 0; i < count; i++) {
    for (const name of content.creditNames(type, i)) {
      targets.push(artistNames.length);
      artistNames.push(name);
    }
    offsets.push(targets.length);
  }
  for (const w of [offsets, targets, artistNames]) w.finish();
  return { ...files, artists: { offsets: offsets.path, targets: targets.path, artistNames: artistNames.path } };
}
