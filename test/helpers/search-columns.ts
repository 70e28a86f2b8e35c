import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSearchIndex } from '../../src/compile/search-build/build-search-index.js';
import type { SearchDocumentFiles } from '../../src/compile/search-index.js';
import { NumberColumnWriter, StringColumnWriter } from '../../src/compile/spill/columns.js';
import { SpillDir } from '../../src/compile/spill/spill-dir.js';
import type { WrittenShard } from '../../src/index-format/shards/shard-writer.js';

/**
 * The searchable documents of one resource type held in memory, for tests: document r is the
 * r-th most popular resource (`ordinals[r]` is its ordinal). The compile reads the same from
 * column files (SearchDocumentFiles).
 */
export interface SearchDocuments {
  readonly type: string;
  /** Ordinal of the document at each popularity rank. */
  readonly ordinals: Uint32Array;
  /** Display name by ordinal. */
  readonly names: readonly string[];
  /** Credited artists by ordinal (songs and albums): `targets[offsets[o]..offsets[o+1])` index `artistNames`. */
  readonly artists?: { readonly offsets: Uint32Array; readonly targets: Uint32Array; readonly artistNames: readonly string[] };
}

function u32File(path: string, values: ArrayLike<number>): string {
  const w = new NumberColumnWriter(path, 'u32');
  for (let i = 0; i < values.length; i++) w.push(values[i]);
  w.finish();
  return path;
}

function stringFile(path: string, values: readonly string[]): string {
  const w = new StringColumnWriter(path);
  for (const v of values) w.push(v);
  w.finish();
  return path;
}

/** In-memory search documents written as the column files the out-of-core build reads, in `dir`. */
export function searchDocumentFiles(dir: string, docs: SearchDocuments): SearchDocumentFiles {
  const artists = docs.artists;
  return {
    type: docs.type as SearchDocumentFiles['type'],
    ordinals: u32File(join(dir, 'ordinals'), docs.ordinals),
    names: stringFile(join(dir, 'names'), docs.names),
    ...(artists
      ? {
          artists: {
            offsets: u32File(join(dir, 'credit-offsets'), artists.offsets),
            targets: u32File(join(dir, 'credit-targets'), artists.targets),
            artistNames: stringFile(join(dir, 'artist-names'), artists.artistNames),
          },
        }
      : {}),
  };
}

/**
 * Writes one search shard from documents held in memory, with the compile's own writer (the
 * format has one): the documents as column files beside `path`, then buildSearchIndex within
 * `budgetBytes` (64 MiB: nothing spills in a test's catalog unless asked).
 */
export function writeSearchIndex(path: string, buildId: string, docs: SearchDocuments, budgetBytes = 64 * 2 ** 20): WrittenShard {
  const dir = mkdtempSync(join(dirname(path), '.search-documents-'));
  try {
    const spill = join(dir, 'spill');
    mkdirSync(spill);
    return buildSearchIndex(path, buildId, searchDocumentFiles(dir, docs), SpillDir.attach(spill, ''), budgetBytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
