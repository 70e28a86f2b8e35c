import { join } from 'node:path';
import type { SearchDocuments } from '../../src/index-format/search/search-index-writer.js';
import { NumberColumnWriter, StringColumnWriter } from '../../src/compile/spill/columns.js';
import type { SearchDocumentFiles } from '../../src/compile/search-index.js';

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
