import type { NumberColumnWriter, StringColumn } from '../spill/columns.js';
import type { ExternalSorter } from '../../sort/external-sort.js';
import type { TermLists } from './rank-pass.js';
import { nameBytesHash } from '../../index-format/search/name-range.js';

const SPACE = 0x20;

/**
 * names.order: the ranks sorted by normalised name as UTF-8 bytes, ties by rank (the sort is
 * stable). A normalised name is its tokens joined by single spaces, and every byte of a token is
 * above the space, so two names compare as the sequences of their tokens' term ids (ids are in
 * byte order; a token that is a prefix of another sorts first, as its name has a space or its
 * end where the other has a letter; a sequence that is a prefix of another sorts first). The sort
 * is keyed on those ids at a fixed width, far shorter than the text and telling names apart in
 * their first bytes, where text keys share long prefixes ("the love ...") that the sort must
 * break again and again.
 *
 * The ids come from docname (each distinct token once, in first-appearance order): a name with
 * as many tokens as distinct ones is that list as it stands; one that repeats a word is split to
 * find which id each token is. Beside each position, `hashes` gets its name's hash, from which
 * the name table is written (name-hash-table.ts).
 */
export function orderNames(
  names: StringColumn,
  docName: TermLists,
  termCount: number,
  sorter: ExternalSorter,
  order: NumberColumnWriter,
  hashes: NumberColumnWriter,
): void {
  const width = termCount <= 0x100 ? 1 : termCount <= 0x10000 ? 2 : termCount <= 0x1000000 ? 3 : 4;
  let key = Buffer.alloc(256);
  const rankAndHash = Buffer.alloc(8);
  for (let r = 0; r < names.length; r++) {
    const bytes = names.bytes(r);
    const from = docName.offsets[r];
    const distinct = docName.offsets[r + 1] - from;
    let tokens = bytes.length === 0 ? 0 : 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === SPACE) tokens++;
    if (tokens * width > key.length) key = Buffer.alloc(tokens * width * 2);
    if (tokens === distinct) {
      for (let i = 0; i < tokens; i++) key.writeUIntBE(docName.targets[from + i], i * width, width);
    } else {
      const all = bytes.toString('utf8').split(' ');
      const seen: string[] = [];
      all.forEach((token, i) => {
        let u = seen.indexOf(token);
        if (u < 0) u = seen.push(token) - 1;
        key.writeUIntBE(docName.targets[from + u], i * width, width);
      });
    }
    rankAndHash.writeUInt32LE(r, 0);
    rankAndHash.writeUInt32LE(nameBytesHash(bytes), 4);
    sorter.add(key.subarray(0, tokens * width), rankAndHash);
  }
  sorter.drain((buffer, _keyStart, keyEnd) => {
    order.push(buffer.readUInt32LE(keyEnd));
    hashes.push(buffer.readUInt32LE(keyEnd + 4));
  });
}
