import { SHARD_KINDS } from '../constants.js';
import { FormatError } from '../errors.js';
import { ColdRead, coldReadsArmed, type ColdRange } from '../shards/cold-reads.js';
import type { Shard } from '../shards/shard-reader.js';
import { ShardWriter, type WrittenShard } from '../shards/shard-writer.js';
import { u32Bytes } from '../u32.js';

/**
 * A hash table from string keys (UTF-8, up to 255 bytes) to u32 values (ordinals), open addressing with linear
 * probing. Sections: `slots` (capacity x [u32 hash, u32 entry offset + 1], 0 = empty) and
 * `entries` ([u8 key length][key bytes][u32 count][u32 value x count]). The key is stored beside
 * its values, so a hit is confirmed and a miss costs one or two slot reads. Readers find the
 * sections by name and a key by probing from its home slot (hash & (capacity - 1)) to the first
 * empty one, so a writer may lay out sections and entries in any order and put a key in any slot
 * that probe passes: KeyTableBuilder here, in memory; compile/key-table-sink.ts, out of core.
 */
export interface KeyTableMeta {
  readonly name: string;
  readonly count: number;
  readonly capacity: number;
}

const MAX_LOAD = 0.6;
/** The longest key, in UTF-8 bytes: its length is stored in one byte. */
export const MAX_KEY_BYTES = 255;

/** FNV-1a over the key's UTF-16 code units (cheap in JS, and the same at write and read). */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Slots of a table of `count` distinct keys: the smallest power of two (at least 16) with load <= 0.6. */
export function keyTableCapacity(count: number): number {
  let capacity = 16;
  while (capacity * MAX_LOAD < count) capacity *= 2;
  return capacity;
}

/** The error for a key that is empty or longer than MAX_KEY_BYTES (one message for every writer). */
export function badKeyError(table: string, key: string): Error {
  return new Error(`key table ${table}: key ${JSON.stringify(key)} is not 1..255 UTF-8 bytes`);
}

/**
 * Builds a key table in memory and writes it as one shard. `add` may be called several times
 * for one key: its values are kept in call order.
 */
export class KeyTableBuilder {
  private readonly values = new Map<string, number[]>();

  constructor(readonly name: string) {}

  add(key: string, value: number): void {
    const bytes = Buffer.byteLength(key, 'utf8');
    if (bytes === 0 || bytes > MAX_KEY_BYTES) {
      throw badKeyError(this.name, key);
    }
    const list = this.values.get(key);
    if (list) list.push(value);
    else this.values.set(key, [value]);
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  get size(): number {
    return this.values.size;
  }

  write(path: string, buildId: string): WrittenShard {
    const capacity = keyTableCapacity(this.values.size);
    const slots = new Uint32Array(capacity * 2);
    const mask = capacity - 1;
    let entryBytes = 0;
    for (const [key, list] of this.values) entryBytes += 1 + Buffer.byteLength(key, 'utf8') + 4 + list.length * 4;
    const entries = Buffer.alloc(entryBytes);
    let at = 0;
    for (const [key, list] of this.values) {
      const hash = hashKey(key);
      let slot = hash & mask;
      while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
      slots[slot * 2] = hash;
      slots[slot * 2 + 1] = at + 1;
      entries[at++] = Buffer.byteLength(key, 'utf8');
      at += entries.write(key, at, 'utf8');
      entries.writeUInt32LE(list.length, at);
      at += 4;
      for (const v of list) {
        entries.writeUInt32LE(v, at);
        at += 4;
      }
    }
    const writer = new ShardWriter(path, SHARD_KINDS.keys, buildId);
    writer.section('slots', u32Bytes(slots));
    writer.section('entries', entries);
    const meta: KeyTableMeta = { name: this.name, count: this.values.size, capacity };
    return writer.finish({ ...meta });
  }
}

const NO_VALUES: readonly number[] = Object.freeze([]);
/** The most keys touch() loads ahead: a lookup's 100 values. */
const TOUCH_MAX = 128;
/** Bytes of an entry asked for ahead: its key (at most 256) and a value or two. */
const ENTRY_AHEAD = 272;

/** Looks keys up in a key table shard. */
export class KeyTable {
  readonly count: number;
  private readonly capacity: number;
  private readonly slotsStart: number;
  private readonly entriesStart: number;
  private readonly entriesLength: number;
  private readonly touchAt = new Float64Array(TOUCH_MAX);

  constructor(private readonly shard: Shard) {
    const meta = shard.meta as unknown as KeyTableMeta;
    const slots = shard.section('slots');
    const entries = shard.section('entries');
    if (!Number.isInteger(meta.capacity) || meta.capacity <= 0 || (meta.capacity & (meta.capacity - 1)) !== 0 || slots.length !== meta.capacity * 8) {
      throw new FormatError('E_FORMAT_HEADER', 'key table slot section does not match its capacity', shard.path);
    }
    this.count = meta.count;
    this.capacity = meta.capacity;
    this.slotsStart = slots.start;
    this.entriesStart = entries.start;
    this.entriesLength = entries.length;
  }

  /**
   * Loads the home slot of each key, then the entry that slot names, and does nothing else: the
   * keys of a lookup (up to 100 ISRCs) spread over a large table are each a cache and TLB miss
   * away, and looking them up one by one waits for each miss in turn, where these loads, in
   * tight loops, wait for them together. Mapped tables only; nothing loaded here is returned
   * (getAll verifies what it reads).
   */
  touch(keys: readonly string[]): number {
    const map = this.shard.mapping;
    if (!map) return 0;
    const n = Math.min(keys.length, TOUCH_MAX);
    const at = this.touchAt;
    const mask = this.capacity - 1;
    for (let i = 0; i < n; i++) at[i] = this.slotsStart + (hashKey(keys[i]) & mask) * 8;
    // Pages mostly on disk (Shard.readsAhead): every slot's page asked for before any is read,
    // then every entry's. Always: the keys of a lookup are spread over the table, cold by nature
    // (a probe of the first said little of the other nine, measured), and lists of search
    // results never come here.
    // Armed (cold-reads.ts): the slots not in memory brought in together, then the entries.
    const armed = this.shard.readsAhead && coldReadsArmed();
    const ahead = this.shard.readsAhead && n > 1 && !armed;
    if (armed) this.throwCold(at, n, 0, 8);
    if (ahead) for (let i = 0; i < n; i++) this.shard.prefetch(at[i], 8);
    for (let i = 0; i < n; i++) at[i] = map.readUInt32LE(at[i] + 4);
    if (armed) this.throwCold(at, n, this.entriesStart - 1, ENTRY_AHEAD);
    if (ahead) for (let i = 0; i < n; i++) if (at[i] > 0 && at[i] <= this.entriesLength) this.shard.prefetch(this.entriesStart + at[i] - 1, ENTRY_AHEAD);
    let sum = 0;
    for (let i = 0; i < n; i++) if (at[i] > 0 && at[i] <= this.entriesLength) sum += map[this.entriesStart + at[i] - 1];
    return sum;
  }

  /**
   * Throws ColdRead with the bytes at `base + at[i]` (up to `length` of them, inside the file) not
   * in memory, when there are any; `at[i]` of 0 is no entry.
   */
  private throwCold(at: Float64Array, n: number, base: number, length: number): void {
    const cold: ColdRange[] = [];
    for (let i = 0; i < n; i++) {
      if (at[i] <= 0 || (base > 0 && at[i] > this.entriesLength)) continue;
      const start = base + at[i];
      this.shard.addCold(cold, start, Math.min(length, this.shard.header.totalLength - start));
    }
    if (cold.length > 0) throw new ColdRead(cold);
  }

  /** All values of a key, in the order they were added; empty when the key is absent. */
  getAll(key: string): readonly number[] {
    const at = this.find(key);
    if (at < 0) return NO_VALUES;
    const map = this.shard.mapping;
    const count = map ? this.verified(map, at, 4).readUInt32LE(at) : this.shard.u32(at);
    if (at + 4 + count * 4 > this.entriesStart + this.entriesLength) {
      throw new FormatError('E_FORMAT_RECORD', `entry of ${key} runs past the table`, this.shard.path);
    }
    const bytes = map ? this.verified(map, at + 4, count * 4) : this.shard.bytes(at + 4, count * 4);
    const v = map ? at + 4 : 0;
    const values: number[] = new Array(count);
    for (let i = 0; i < count; i++) values[i] = bytes.readUInt32LE(v + i * 4);
    return values;
  }

  /** The first value of a key, or -1 when absent. */
  get(key: string): number {
    const at = this.find(key);
    if (at < 0) return -1;
    const map = this.shard.mapping;
    return map ? this.verified(map, at + 4, 4).readUInt32LE(at + 4) : this.shard.bytes(at + 4, 4).readUInt32LE(0);
  }

  /**
   * Offset of the key's value count, or -1. When the shard is mapped, slots and keys are read in
   * place (each range verified first) and nothing is allocated for an ASCII key (ids, ISRCs,
   * UPCs); under positioned reads each probe reads its bytes.
   */
  private find(key: string): number {
    const ascii = isAscii(key);
    const keyBytes = ascii ? key.length : Buffer.byteLength(key, 'utf8');
    if (keyBytes === 0 || keyBytes > MAX_KEY_BYTES) return -1;
    const encoded = ascii ? null : Buffer.from(key, 'utf8');
    const map = this.shard.mapping;
    const hash = hashKey(key);
    const mask = this.capacity - 1;
    let slot = hash & mask;
    for (let probes = 0; probes < this.capacity; probes++) {
      const pairAt = this.slotsStart + slot * 8;
      const pair = map ? this.verified(map, pairAt, 8) : this.shard.bytes(pairAt, 8);
      const p = map ? pairAt : 0;
      const entry = pair.readUInt32LE(p + 4);
      if (entry === 0) return -1;
      if (pair.readUInt32LE(p) === hash) {
        const at = this.entriesStart + entry - 1;
        if (entry - 1 + 1 + keyBytes + 4 > this.entriesLength) {
          throw new FormatError('E_FORMAT_RECORD', `slot ${slot} points past the entries`, this.shard.path);
        }
        const stored = map ? this.verified(map, at, 1 + keyBytes) : this.shard.bytes(at, 1 + keyBytes);
        const k = map ? at : 0;
        const same = encoded ? stored.compare(encoded, 0, keyBytes, k + 1, k + 1 + keyBytes) === 0 : sameAscii(stored, k + 1, key);
        if (stored[k] === keyBytes && same) return at + 1 + keyBytes;
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /** The mapping, once [at, at + length) of it is verified. */
  private verified(map: Buffer, at: number, length: number): Buffer {
    this.shard.verify(at, length);
    return map;
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Whether bytes [at, at + key.length) of `bytes` are the ASCII key. */
function sameAscii(bytes: Buffer, at: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) if (bytes[at + i] !== key.charCodeAt(i)) return false;
  return true;
}
