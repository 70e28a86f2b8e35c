import { readFileSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { SHARD_KINDS } from '../index-format/constants.js';
import { badKeyError, hashKey, keyTableCapacity, type KeyTableMeta } from '../index-format/tables/key-table.js';
import { nativeMmapAvailable, openFileBytes, wholeMapping } from '../index-format/shards/mapped-file.js';
import { ShardWriter, type WrittenShard } from '../index-format/shards/shard-writer.js';
import { EntryStream, HashGroupWriter } from './key-table-entries.js';
import { KeyFileWriter } from './key-table-keys.js';
import { PairFileWriter, sortPairsByHome, writeSlotsSection } from './key-table-slots.js';
import { FixedSorter } from '../sort/fixed-sort.js';
import type { SpillDir } from './spill/spill-dir.js';

/**
 * Bytes of the budget kept for everything but the sorters: the key file's write buffer, the
 * entry chunk, the shard writer's chunk, pair and slot blocks (1 MiB or less each).
 */
const BUFFER_BYTES = 6 * 2 ** 20;

/**
 * A scratch file read in place: mapped when the native addon loads (file pages, which the kernel
 * can drop, and which `release` takes out of this process's RSS at once), else read into memory.
 */
function mappedFile(path: string): { bytes: Buffer; release(): void } {
  if (!nativeMmapAvailable()) return { bytes: readFileSync(path), release() {} };
  const file = openFileBytes(path, { mode: 'mmap', advice: 'normal', whole: true });
  return {
    bytes: wholeMapping(file),
    release() {
      file.releasePages();
      file.close();
    },
  };
}

/**
 * Writes a key table (the shard `KeyTable` reads) whose memory is set by a budget, not by the
 * number of keys: for the song tables of a 30M-song catalog, which neither a JS Map (2^24
 * entries at most) nor an in-memory slot array (512 MiB) can hold.
 *
 * `add` appends the key's UTF-8 bytes to a key file on disk and (hash, key offset, value) to a
 * FixedSorter. `write` drains the sorter in hash order, groups equal keys (reading their bytes
 * back from the key file, mapped) and streams their entries into the shard; only then is the
 * number of distinct keys, and so the capacity, known. The entries' (hash, offset) pairs are
 * sorted again by home slot and placed in order, streaming the slots into the shard
 * (key-table-slots.ts). Sections come entries first, then slots; the reader finds them by name.
 *
 * Memory: `budgetBytes` (the two sorters' arenas and a few 1 MiB buffers) plus 384 KiB per
 * spilled run while merging, plus 12 bytes per value of the key being grouped. The key file is read through a mapping (file pages, not the process's own).
 * On disk, at most: the key file (key bytes + 1 per add), the sorter's runs (12 bytes per add),
 * two pair files (8 per distinct key) and the second sort's runs (8 per distinct key).
 * The same adds in the same order give the same bytes, whatever the budget.
 */
export class KeyTableSink {
  private readonly keys: KeyFileWriter;
  private readonly sorter: FixedSorter;
  /** The second sort's share of the budget (the first has the rest). */
  private readonly homeSortBytes: number;
  private adds = 0;
  private done = false;

  constructor(
    readonly name: string,
    private readonly spill: SpillDir,
    budgetBytes: number,
  ) {
    // The two sorts split the budget 3:2, as their records are 12 and 8 bytes, so the second
    // stays within it even before the garbage collector has taken the first one's arrays.
    const sortBytes = Math.max(0, budgetBytes - BUFFER_BYTES);
    this.homeSortBytes = Math.floor((sortBytes * 2) / 5);
    const runsAt = this.scratch('by-hash');
    this.sorter = new FixedSorter(dirname(runsAt), basename(runsAt), 3, 1, sortBytes - this.homeSortBytes);
    this.keys = new KeyFileWriter(this.scratch('keys'));
  }

  /** Keys added (a key added twice counts twice). */
  get size(): number {
    return this.adds;
  }

  /** As KeyTableBuilder.add: a key of 1..255 UTF-8 bytes; a key added again keeps all its values in call order. */
  add(key: string, value: number): void {
    if (this.done) throw new Error(`key table ${this.name}: add after write`);
    if (value >>> 0 !== value) throw new RangeError(`key table ${this.name}: value ${value} of ${JSON.stringify(key)} is not a u32`);
    const at = this.keys.append(key);
    if (at < 0) throw badKeyError(this.name, key);
    this.sorter.add(hashKey(key), at, value);
    this.adds++;
  }

  /** Writes the shard and removes every scratch file, whether it succeeds or throws. */
  write(path: string, buildId: string): WrittenShard {
    if (this.done) throw new Error(`key table ${this.name}: written twice`);
    this.done = true;
    const scratchFiles = [this.keys.path];
    let keys: ReturnType<typeof mappedFile> | undefined;
    try {
      this.keys.close();
      keys = mappedFile(this.keys.path);
      const writer = new ShardWriter(path, SHARD_KINDS.keys, buildId);

      writer.beginSection('entries');
      const byHash = new PairFileWriter(this.scratch('pairs-by-hash'));
      scratchFiles.push(byHash.path);
      const entries = new EntryStream(writer);
      const groups = new HashGroupWriter(keys.bytes, entries, (hash, entry) => byHash.push(hash, entry));
      try {
        this.sorter.drain((words, at) => groups.add(words[at], words[at + 1], words[at + 2]));
        groups.finish();
        entries.flush();
      } finally {
        byHash.close();
        keys.release();
        keys = undefined;
      }
      writer.endSection();

      const count = groups.count;
      const capacity = keyTableCapacity(count);
      const byHome = sortPairsByHome(byHash.path, count, capacity, (what) => this.scratch(what), this.homeSortBytes);
      scratchFiles.push(byHome.path);
      rmSync(byHash.path, { force: true });
      writeSlotsSection(writer, byHome);
      const meta: KeyTableMeta = { name: this.name, count, capacity };
      return writer.finish({ ...meta });
    } finally {
      keys?.release();
      this.sorter.dispose();
      for (const file of scratchFiles) rmSync(file, { force: true });
    }
  }

  /** Gives up without writing: closes and removes the scratch files. */
  dispose(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.keys.close();
    } finally {
      this.sorter.dispose();
      rmSync(this.keys.path, { force: true });
    }
  }

  /** A fresh path in the spill directory for this table's `what`. */
  private scratch(what: string): string {
    return this.spill.file(`${this.name.replace(/[^A-Za-z0-9._-]/g, '_')}.${what}`);
  }
}
