import { closeSync, openSync, readSync } from 'node:fs';
import type { ShardWriter } from '../../index-format/shards/shard-writer.js';
import { u32Bytes } from '../../index-format/u32.js';
import { mapF64Column } from '../spill/columns.js';

/**
 * Sections copied from spill files into an open section of the shard: a section whose offsets
 * precede its data in the layout is built in a file first, then copied in its turn.
 */

const CHUNK = 1 << 20;

/** The whole file, through one buffer. */
export function writeFileBytes(writer: ShardWriter, path: string): void {
  const buffer = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, 'r');
  try {
    for (let n: number; (n = readSync(fd, buffer, 0, CHUNK, null)) > 0; ) writer.write(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

/** A string table's offsets (u32: a leading 0, then each string's end) from a StringColumn's f64 ends. */
export function writeStringOffsets(writer: ShardWriter, columnPath: string): void {
  const ends = mapF64Column(`${columnPath}.ends`);
  if (ends.length > 0 && ends[ends.length - 1] > 0xffffffff) throw new RangeError(`search index: the strings of ${columnPath} hold more than 4 GiB`);
  const chunk = new Uint32Array(CHUNK / 4);
  let filled = 1; // chunk[0] = 0: the first string starts at 0
  for (let i = 0; i < ends.length; i++) {
    if (filled === chunk.length) {
      writer.write(u32Bytes(chunk));
      filled = 0;
    }
    chunk[filled++] = ends[i];
  }
  writer.write(u32Bytes(chunk.subarray(0, filled)));
}
