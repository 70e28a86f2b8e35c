import type { Unpackr } from 'msgpackr';
import { waitedForDisk } from '../shards/cold-probe.js';
import { ColdRead, coldReadsArmed, type ColdRange } from '../shards/cold-reads.js';
import { FormatError } from '../errors.js';
import type { Shard } from '../shards/shard-reader.js';
import { lzDecodedLength } from '../codec/lz-codec.js';
import { DecodedCache } from './decoded-cache.js';
import { PlacedRecord } from './placed-record.js';
import { decoderOf, openPart, type OpenRecordShard } from './record-shard.js';

export { RECORD_ENCODING, type RecordShardMeta } from './record-shard.js';

/** Records keepRecent holds, by ordinal modulo this (a power of two). */
const RECENT_SLOTS = 8;
/** The most records touch() loads ahead: a page of results or a lookup's values (100). */
const TOUCH_MAX = 128;

/** Reads records by ordinal from the shards of one table, compressed or stored plain. */
export class RecordTable {
  readonly count: number;
  /** Whether any shard is compressed: then raw() makes a Buffer per record, which place() spares. */
  readonly compressed: boolean;
  /**
   * Whether a shard of the table reads ahead (Shard.readsAhead, a snapshot larger than memory):
   * only then does an armed read ask whether its pages are in memory (cold-reads.ts).
   */
  readonly checksCold: boolean;
  private readonly parts: OpenRecordShard[];
  private recent: { ordinals: Float64Array; records: unknown[] } | null = null;
  private readonly touchStarts = new Float64Array(TOUCH_MAX);
  private readonly decodedCache: DecodedCache | null;

  constructor(
    readonly table: string,
    shards: readonly Shard[],
    private readonly unpackr: Unpackr,
  ) {
    this.parts = shards.map((shard) => openPart(table, shard)).sort((a, b) => a.firstOrdinal - b.firstOrdinal);
    let expected = 0;
    for (const part of this.parts) {
      if (part.firstOrdinal !== expected) {
        throw new FormatError('E_SNAPSHOT_MISMATCH', `table ${table} has a gap at ordinal ${expected}`, part.shard.path);
      }
      expected += part.count;
    }
    this.count = expected;
    this.compressed = this.parts.some((part) => part.dictionary !== null);
    this.decodedCache = this.compressed ? new DecodedCache() : null;
    this.checksCold = this.parts.some((part) => part.shard.readsAhead && part.offsets !== null && part.mapped !== undefined);
  }

  /** The bytes of one record: zero-copy when stored plain and mapped, else a Buffer of its own. */
  raw(ordinal: number): Buffer {
    const part = this.partOf(ordinal);
    const [from, to] = this.span(part, ordinal);
    if (!part.dictionary) return part.shard.bytes(part.dataStart + from, to - from);
    const n = this.decode(part, ordinal, from, to);
    const decoder = part.decoder!;
    const out = Buffer.allocUnsafe(n);
    out.set(decoder.outputBytes.subarray(decoder.outputAt, decoder.outputAt + n));
    return out;
  }

  /**
   * Loads the first stored byte of each record of a list about to be placed (at most the first
   * 128), and does nothing else: records spread over a large table are each a cache and TLB miss
   * away, and placing them one by one waits for each miss in turn, where these loads, in two tight
   * loops (offsets, then records), wait for them together. Reads only mapped, aligned shards, and
   * no byte it loads is served: place() and copyTo() verify what they use.
   */
  touch(ordinals: ArrayLike<number>): number {
    const n = Math.min(ordinals.length, TOUCH_MAX);
    const starts = this.touchStarts;
    // Pages mostly on disk (Shard.readsAhead): every record's offsets asked for before any is
    // read, then every record's bytes.
    if (this.checksCold && coldReadsArmed()) this.throwCold(ordinals, n);
    const ahead = !coldReadsArmed() && this.readsAhead(ordinals, n);
    for (let i = 0; i < n; i++) {
      const o = ordinals[i];
      starts[i] = -1;
      if (!Number.isInteger(o) || o < 0 || o >= this.count || (this.decodedCache && this.decodedCache.holds(o))) continue;
      const part = this.partOf(o);
      if (part.offsets && part.mapped) {
        const local = o - part.firstOrdinal;
        starts[i] = part.dataStart + part.offsets[local];
        if (ahead) part.shard.prefetch(starts[i], part.offsets[local + 1] - part.offsets[local]);
      }
    }
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const at = starts[i];
      if (at >= 0) sum += this.partOf(ordinals[i]).mapped![at] | 0;
    }
    return sum;
  }

  /**
   * Armed (cold-reads.ts): throws ColdRead with the offsets not in memory of the records of a
   * list, all together, and once those are in, with their bytes not in memory.
   */
  private throwCold(ordinals: ArrayLike<number>, n: number): void {
    for (const step of ['offsets', 'bytes'] as const) {
      const cold: ColdRange[] = [];
      for (let i = 0; i < n; i++) {
        const o = ordinals[i];
        if (!Number.isInteger(o) || o < 0 || o >= this.count) continue;
        const part = this.partOf(o);
        if (!part.offsets || !part.mapped) continue;
        const local = o - part.firstOrdinal;
        if (step === 'offsets') part.shard.addCold(cold, part.offsetsStart + local * 4, 8);
        else part.shard.addCold(cold, part.dataStart + part.offsets[local], part.offsets[local + 1] - part.offsets[local]);
      }
      if (cold.length > 0) throw new ColdRead(cold);
    }
  }

  /**
   * When the table's pages are mostly on disk (Shard.readsAhead) and the first record's bytes
   * were, or this shard's often are (ColdRate): asks for every other record's offsets, and says
   * so (their bytes are asked for next).
   */
  private readsAhead(ordinals: ArrayLike<number>, n: number): boolean {
    let probed = false;
    for (let i = 0; i < n; i++) {
      const o = ordinals[i];
      if (!Number.isInteger(o) || o < 0 || o >= this.count) continue;
      const part = this.partOf(o);
      if (!part.shard.readsAhead || !part.offsets || !part.mapped) return false;
      const local = o - part.firstOrdinal;
      if (!probed) {
        // The probe is the first record's bytes: its offsets (4 bytes a record) are often cached
        // when its bytes are not (measured).
        if (n < 2 || !part.shard.coldRate.observe(waitedForDisk(part.mapped, part.dataStart + part.offsets[local]))) return false;
        probed = true;
      } else part.shard.prefetch(part.offsetsStart + local * 4, 8);
    }
    return probed;
  }

  /**
   * Finds a record without reading it: its length, and a PlacedRecord that writes it where asked,
   * later; from its decoded copy when the table keeps one (DecodedCache).
   */
  place(ordinal: number): PlacedRecord {
    const cache = this.decodedCache;
    if (!cache) return this.placeStored(ordinal);
    const slot = cache.find(ordinal);
    if (slot >= 0) return this.placedFrom(cache, slot, ordinal);
    const placed = this.placeStored(ordinal);
    if (!cache.admits(ordinal, placed.length)) return placed;
    return this.placedFrom(
      cache,
      cache.keep(ordinal, placed.length, (out, at) => placed.copyTo(out, at)),
      ordinal,
    );
  }

  private placedFrom(cache: DecodedCache, slot: number, ordinal: number): PlacedRecord {
    const length = cache.length(slot);
    const kept = { cache, slot, generation: cache.generation(slot), stored: () => this.placeStored(ordinal) };
    return new PlacedRecord(this.table, this.partOf(ordinal), ordinal, 0, 0, length, length, kept);
  }

  /** place() from the stored bytes. */
  private placeStored(ordinal: number): PlacedRecord {
    const part = this.partOf(ordinal);
    const [from, to] = this.span(part, ordinal);
    const start = part.dataStart + from;
    const end = part.dataStart + to;
    if (!part.dictionary) {
      // Armed (cold-reads.ts), its bytes are checked here, where a cold read can still wait, not
      // when copyTo writes them out.
      if (coldReadsArmed()) part.shard.verify(start, to - from);
      return new PlacedRecord(this.table, part, ordinal, start, end, to - from, to - from);
    }
    const prefix = Math.min(to - from, 5);
    let length: number;
    if (part.mapped) {
      part.shard.verify(start, to - from);
      length = lzDecodedLength(part.mapped, start, start + prefix);
    } else {
      length = lzDecodedLength(part.shard.bytes(start, prefix), 0, prefix);
    }
    if (length < 0) throw new FormatError('E_FORMAT_RECORD', `record ${ordinal} of ${this.table} does not decompress`, part.shard.path);
    return new PlacedRecord(this.table, part, ordinal, start, end, length, length);
  }

  /** [from, to) of a record inside its shard's data section, offsets checked. */
  private span(part: OpenRecordShard, ordinal: number): [number, number] {
    const local = ordinal - part.firstOrdinal;
    let from: number;
    let to: number;
    if (part.offsets) {
      part.shard.verify(part.offsetsStart + local * 4, 8);
      from = part.offsets[local];
      to = part.offsets[local + 1];
    } else {
      const pair = part.shard.bytes(part.offsetsStart + local * 4, 8);
      from = pair.readUInt32LE(0);
      to = pair.readUInt32LE(4);
    }
    if (to < from || to > part.dataLength) {
      throw new FormatError('E_FORMAT_RECORD', `record ${ordinal} has bad offsets`, part.shard.path);
    }
    return [from, to];
  }

  /** Decompresses a record of a compressed shard into its decoder's output; returns its length. */
  private decode(part: OpenRecordShard, ordinal: number, from: number, to: number): number {
    const start = part.dataStart + from;
    let n: number;
    if (part.mapped) {
      part.shard.verify(start, to - from);
      n = decoderOf(part).decode(part.mapped, start, part.dataStart + to);
    } else {
      n = decoderOf(part).decode(part.shard.bytes(start, to - from), 0, to - from);
    }
    if (n < 0) throw new FormatError('E_FORMAT_RECORD', `record ${ordinal} of ${this.table} does not decompress`, part.shard.path);
    return n;
  }

  /**
   * One decoded record. When mapped, msgpackr decodes straight out of the mapping (no Buffer
   * per read), or out of the decoder's output for a compressed record; otherwise from a
   * positioned read.
   */
  get<T = Record<string, unknown>>(ordinal: number): T {
    const recent = this.recent;
    if (recent) {
      const slot = ordinal & (RECENT_SLOTS - 1);
      if (recent.ordinals[slot] === ordinal) return recent.records[slot] as T;
      const record = this.decoded<T>(ordinal);
      recent.ordinals[slot] = ordinal;
      recent.records[slot] = record;
      return record;
    }
    return this.decoded<T>(ordinal);
  }

  /**
   * From now on, `get` keeps the last records it decoded (a few, by ordinal) and hands the same
   * object out again: for a reader that asks for each record more than once in a row, as the
   * compile's views do (both interfaces' views of a song, one after the other). Callers must not
   * change a record they get.
   */
  keepRecent(): void {
    this.recent ??= { ordinals: new Float64Array(RECENT_SLOTS).fill(-1), records: new Array<unknown>(RECENT_SLOTS) };
  }

  private decoded<T>(ordinal: number): T {
    const part = this.partOf(ordinal);
    try {
      if (part.dictionary) {
        const [from, to] = this.span(part, ordinal);
        const n = this.decode(part, ordinal, from, to);
        const decoder = part.decoder!;
        return this.unpackr.unpack(decoder.output, { start: decoder.outputAt, end: decoder.outputAt + n }) as T;
      }
      if (part.mapping) {
        const [from, to] = this.span(part, ordinal);
        const start = part.dataStart + from;
        part.shard.verify(start, to - from);
        return this.unpackr.unpack(part.mapping, { start, end: part.dataStart + to }) as T;
      }
      return this.unpackr.unpack(this.raw(ordinal)) as T;
    } catch (cause) {
      if (cause instanceof FormatError || cause instanceof ColdRead) throw cause;
      throw new FormatError('E_FORMAT_RECORD', `record ${ordinal} of ${this.table} does not decode`, this.partOf(ordinal).shard.path, { cause });
    }
  }

  private partOf(ordinal: number): OpenRecordShard {
    if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= this.count) {
      throw new RangeError(`ordinal ${ordinal} outside table ${this.table} (0..${this.count - 1})`);
    }
    const parts = this.parts;
    if (parts.length === 1) return parts[0];
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (parts[mid].firstOrdinal <= ordinal) lo = mid;
      else hi = mid - 1;
    }
    return parts[lo];
  }
}
