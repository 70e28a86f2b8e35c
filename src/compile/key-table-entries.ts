import type { ShardWriter } from '../index-format/shards/shard-writer.js';
import { GrowableU32 } from '../index-format/u32.js';

/** Bytes of entries put together before they go to the shard. */
const ENTRY_CHUNK = 1 << 20;

/** The largest entry offset a slot can hold (it stores offset + 1 in a u32). */
const MAX_ENTRY_OFFSET = 0xfffffffe;

/**
 * Streams key table entries, `[u8 key length][key bytes][u32 count][u32 value x count]`, into
 * the section open in a ShardWriter, through one chunk: an entry with many values is written
 * piece by piece, so no entry needs to be whole in memory.
 */
export class EntryStream {
  private readonly chunk = Buffer.allocUnsafe(ENTRY_CHUNK);
  private filled = 0;
  /** Bytes written so far: the offset of the next entry. */
  bytes = 0;

  constructor(private readonly writer: ShardWriter) {}

  /**
   * Starts an entry whose key is `keys[at]` (its length) and the bytes after it (the key file's
   * shape, which is the entry's), of `count` values (then `value()` that many times); returns
   * the entry's offset.
   */
  begin(keys: Uint8Array, at: number, count: number): number {
    const offset = this.bytes;
    if (offset > MAX_ENTRY_OFFSET) throw new Error(`key table entries pass 4 GiB (${offset} bytes)`);
    const head = 1 + keys[at];
    this.room(head + 4);
    const chunk = this.chunk;
    let to = this.filled;
    // Keys are short: a loop beats a native copy's call.
    for (let i = at; i < at + head; i++) chunk[to++] = keys[i];
    chunk.writeUInt32LE(count, to);
    this.advance(head + 4);
    return offset;
  }

  value(v: number): void {
    this.room(4);
    this.chunk.writeUInt32LE(v, this.filled);
    this.advance(4);
  }

  private room(n: number): void {
    if (this.filled + n > ENTRY_CHUNK) this.flush();
  }

  private advance(n: number): void {
    this.filled += n;
    this.bytes += n;
  }

  flush(): void {
    if (this.filled === 0) return;
    this.writer.write(this.chunk.subarray(0, this.filled));
    this.filled = 0;
  }
}

/**
 * Turns (hash, key offset, value) records, in hash order and add order within a hash, into
 * entries. Records of one hash are gathered, then split by key: usually one key, but two keys
 * can share a 32-bit hash (about n^2 / 2^33 pairs of n keys), so each record's key bytes are
 * compared with the group's distinct keys, read from the key file (key-table-keys.ts). Distinct
 * keys of one hash are written in the order they were first added; each keeps its values in
 * add order. `onEntry(hash, offset + 1)` gets each entry as written, for its slot.
 */
export class HashGroupWriter {
  private hash = 0;
  /** The group's records: key offsets and values. */
  private readonly keyAt = new GrowableU32(64);
  private readonly values = new GrowableU32(64);
  /** For each record of the group, the index (in the group) of the first record with its key. */
  private readonly owners = new GrowableU32(64);
  /** Entries written. */
  count = 0;

  constructor(
    private readonly keys: Uint8Array,
    private readonly entries: EntryStream,
    private readonly onEntry: (hash: number, entryPlusOne: number) => void,
  ) {}

  add(hash: number, key: number, value: number): void {
    if (this.keyAt.length > 0 && hash !== this.hash) this.flush();
    this.hash = hash;
    this.keyAt.push(key);
    this.values.push(value);
  }

  /** Writes the last group. */
  finish(): void {
    if (this.keyAt.length > 0) this.flush();
  }

  private flush(): void {
    const { keyAt, values, owners } = this;
    const n = keyAt.length;
    // One record, one key: the usual case.
    if (n === 1) {
      this.writeEntry(keyAt.get(0), 1);
      this.entries.value(values.get(0));
    } else {
      owners.length = 0;
      let keysInGroup = 1;
      owners.push(0);
      for (let i = 1; i < n; i++) {
        let owner = -1;
        // Leaders are records that are their own owner; the first is record 0.
        for (let j = 0; j < i && owner < 0; j++) {
          if (owners.get(j) === j && this.sameKey(keyAt.get(i), keyAt.get(j))) owner = j;
        }
        if (owner < 0) {
          owner = i;
          keysInGroup++;
        }
        owners.push(owner);
      }
      for (let leader = 0; leader < n; leader++) {
        if (owners.get(leader) !== leader) continue;
        let count = 0;
        for (let i = leader; i < n; i++) if (owners.get(i) === leader) count++;
        this.writeEntry(keyAt.get(leader), count);
        for (let i = leader; i < n; i++) if (owners.get(i) === leader) this.entries.value(values.get(i));
        if (keysInGroup === 1) break;
      }
    }
    keyAt.length = 0;
    values.length = 0;
  }

  /** Starts the entry of the key at `key` in the key file (its values follow) and hands its offset on. */
  private writeEntry(key: number, count: number): void {
    const offset = this.entries.begin(this.keys, key, count);
    this.onEntry(this.hash, offset + 1);
    this.count++;
  }

  private sameKey(a: number, b: number): boolean {
    const keys = this.keys;
    const end = a + 1 + keys[a];
    for (let i = a, j = b; i < end; i++, j++) if (keys[i] !== keys[j]) return false;
    return true;
  }
}
