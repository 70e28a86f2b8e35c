import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../catalog/catalog.js';
import { MANIFEST_FILE } from '../index-format/manifest.js';

/** What the snapshot panel shows, worked out once per snapshot. */
export interface SnapshotInfo {
  readonly buildId: string;
  readonly formatVersion: string;
  readonly compiler: string;
  /** When the manifest was written (the snapshot's last file); null when it cannot be read. */
  readonly builtAt: Date | null;
  readonly bytes: number;
  readonly shards: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly sources: readonly { readonly file: string; readonly rows: number; readonly bytes: number }[];
}

const known = new WeakMap<Catalog, SnapshotInfo>();

export function snapshotInfo(cat: Catalog): SnapshotInfo {
  let info = known.get(cat);
  if (!info) {
    const { manifest, dir } = cat.snapshot;
    let builtAt: Date | null = null;
    try {
      builtAt = statSync(join(dir, MANIFEST_FILE)).mtime;
    } catch {
      // A snapshot removed under us still answers from its mapping; only the time is unknown.
    }
    info = {
      buildId: cat.buildId,
      formatVersion: manifest.formatVersion,
      compiler: manifest.compiler,
      builtAt,
      bytes: manifest.shards.reduce((sum, s) => sum + s.size, 0),
      shards: manifest.shards.length,
      counts: cat.counts,
      sources: manifest.sources.map((s) => ({ file: s.file, rows: s.rows, bytes: s.bytes })),
    };
    known.set(cat, info);
  }
  return info;
}
