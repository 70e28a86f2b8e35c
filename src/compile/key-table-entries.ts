import type { ShardWriter } from '../index-format/shard-writer.js';
import { GrowableU32 } from '../index-format/u32.js';
import type { StringColumn } from './spill/columns.js';

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

  /** Starts an entry of `count` values (then `value()` that many times); returns its offset. */
  begin(key: Uint8Array, count: number): number {
    const offset = this.bytes;
    if (offset > MAX_ENTRY_OFFSET) throw new Error(`key table entries pass 4 GiB (${offset} bytes)`);
    this.room(1 + key.length + 4);
    this.chunk[this.filled] = key.length;
    this.chunk.set(key, this.filled + 1);
    this.chunk.writeUInt32LE(count, this.filled + 1 + key.length);
    this.advance(1 + key.length + 4);
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
 * Turns (hash, add sequence, value) records, in hash order and add order within a hash, into
 * entries. Records of one hash are gathered, then split by key: usually one key, but two keys
 * can share a 32-bit hash (about n^2 / 2^33 pairs of n keys), so each record's key bytes are
 * compared with the group's distinct keys, read from the key column by add sequence. Distinct
 * keys of one hash are written in the order they were first added; each keeps its values in
 * add order. `onEntry(hash, offset + 1)` gets each entry as written, for its slot.
 */
export class HashGroupWriter {
  private hash = 0;
  private readonly seqs = new GrowableU32(64);
  private readonly values = new GrowableU32(64);
  /** For each record of the group, the index (in the group) of the first record with its key. */
  private readonly owners = new GrowableU32(64);
  /** Entries written. */
  count = 0;

  constructor(
    private readonly keys: StringColumn,
    private readonly entries: EntryStream,
    private readonly onEntry: (hash: number, entryPlusOne: number) => void,
  ) {}

  add(hash: number, seq: number, value: number): void {
    if (this.seqs.length > 0 && hash !== this.hash) this.flush();
    this.hash = hash;
    this.seqs.push(seq);
    this.values.push(value);
  }

  /** Writes the last group. */
  finish(): void {
    if (this.seqs.length > 0) this.flush();
  }

  private flush(): void {
    const { seqs, values, owners } = this;
    const n = seqs.length;
    owners.length = 0;
    let keysInGroup = 1;
    owners.push(0);
    for (let i = 1; i < n; i++) {
      const key = this.keys.bytes(seqs.get(i));
      let owner = -1;
      // Leaders are records that are their own owner; the first is record 0.
      for (let j = 0; j < i && owner < 0; j++) {
        if (owners.get(j) === j && key.equals(this.keys.bytes(seqs.get(j)))) owner = j;
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
      if (keysInGroup === 1) count = n;
      else for (let i = leader; i < n; i++) if (owners.get(i) === leader) count++;
      const offset = this.entries.begin(this.keys.bytes(seqs.get(leader)), count);
      for (let i = leader; i < n; i++) if (owners.get(i) === leader) this.entries.value(values.get(i));
      this.onEntry(this.hash, offset + 1);
      this.count++;
      if (keysInGroup === 1) break;
    }
    seqs.length = 0;
    values.length = 0;
  }
}
