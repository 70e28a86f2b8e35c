import { join } from 'node:path';
import { Packr, Unpackr } from 'msgpackr';
import { SHARD_KINDS } from './constants.js';
import { FormatError } from './errors.js';
import type { Shard } from './shard-reader.js';
import { ShardWriter, type WrittenShard } from './shard-writer.js';
import { u32Bytes } from './u32.js';

/** A shard of a record table holds a contiguous range of ordinals: [firstOrdinal, +count). */
export interface RecordShardMeta {
  readonly table: string;
  readonly firstOrdinal: number;
  readonly count: number;
}

export const DEFAULT_MAX_SHARD_BYTES = 512 << 20;

/**
 * Writes records (msgpackr with shared structures) in ordinal order, starting a new shard
 * whenever the current one passes `maxShardBytes`. Sections: `data` (the packed records back to
 * back) and `offsets` (u32 x count+1, relative to `data`).
 */
export class RecordTableWriter {
  readonly shards: WrittenShard[] = [];
  private writer: ShardWriter | null = null;
  private offsets: number[] = [];
  private firstOrdinal = 0;
  private next = 0;

  constructor(
    private readonly dir: string,
    readonly table: string,
    private readonly buildId: string,
    private readonly packr: Packr | null,
    private readonly maxShardBytes = DEFAULT_MAX_SHARD_BYTES,
  ) {}

  add(record: unknown): void {
    if (!this.packr) throw new Error(`record table ${this.table} stores bytes only`);
    this.addBytes(this.packr.pack(record));
  }

  /** Adds a record that is already bytes (a pre-rendered view), stored as it is. */
  addBytes(bytes: Uint8Array): void {
    if (!this.writer) this.startShard();
    this.offsets.push(this.writer!.bytesWritten);
    this.writer!.write(bytes);
    this.next++;
    if (this.writer!.bytesWritten >= this.maxShardBytes) this.finishShard();
  }

  private startShard(): void {
    const name = `${this.table}.${String(this.shards.length).padStart(4, '0')}.rec`;
    this.writer = new ShardWriter(join(this.dir, name), SHARD_KINDS.records, this.buildId);
    this.writer.beginSection('data');
    this.offsets = [];
    this.firstOrdinal = this.next;
  }

  private finishShard(): void {
    const writer = this.writer!;
    const dataLength = writer.bytesWritten;
    writer.endSection();
    this.offsets.push(dataLength);
    writer.section('offsets', u32Bytes(Uint32Array.from(this.offsets)));
    const meta: RecordShardMeta = { table: this.table, firstOrdinal: this.firstOrdinal, count: this.offsets.length - 1 };
    this.shards.push(writer.finish({ ...meta }));
    this.writer = null;
  }

  /** Closes the last shard; an empty table still gets one (empty) shard. */
  finish(): WrittenShard[] {
    if (!this.writer && this.shards.length === 0) this.startShard();
    if (this.writer) this.finishShard();
    return this.shards;
  }
}

interface OpenRecordShard {
  readonly shard: Shard;
  readonly firstOrdinal: number;
  readonly count: number;
  readonly dataStart: number;
  readonly dataLength: number;
  readonly offsetsStart: number;
  /** The offsets section as a zero-copy view when the shard is mapped and aligned. */
  readonly offsets: Uint32Array | null;
  readonly mapping: Buffer | undefined;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Reads records by ordinal from the shards of one table. */
export class RecordTable {
  readonly count: number;
  private readonly parts: OpenRecordShard[];

  constructor(readonly table: string, shards: readonly Shard[], private readonly unpackr: Unpackr) {
    this.parts = shards
      .map((shard) => {
        const meta = shard.meta as unknown as RecordShardMeta;
        if (meta.table !== table || !Number.isInteger(meta.firstOrdinal) || !Number.isInteger(meta.count)) {
          throw new FormatError('E_SNAPSHOT_MISMATCH', `shard is not part of table ${table}`, shard.path);
        }
        const offsets = shard.section('offsets');
        if (offsets.length !== (meta.count + 1) * 4) {
          throw new FormatError('E_FORMAT_HEADER', `offsets section does not hold ${meta.count + 1} entries`, shard.path);
        }
        const mapping = shard.mapping;
        const aligned = mapping !== undefined && LITTLE_ENDIAN && (mapping.byteOffset + offsets.start) % 4 === 0;
        return {
          shard,
          firstOrdinal: meta.firstOrdinal,
          count: meta.count,
          dataStart: shard.section('data').start,
          dataLength: shard.section('data').length,
          offsetsStart: offsets.start,
          offsets: aligned ? new Uint32Array(mapping.buffer, mapping.byteOffset + offsets.start, meta.count + 1) : null,
          mapping,
        };
      })
      .sort((a, b) => a.firstOrdinal - b.firstOrdinal);
    let expected = 0;
    for (const part of this.parts) {
      if (part.firstOrdinal !== expected) {
        throw new FormatError('E_SNAPSHOT_MISMATCH', `table ${table} has a gap at ordinal ${expected}`, part.shard.path);
      }
      expected += part.count;
    }
    this.count = expected;
  }

  /** The packed bytes of one record (zero-copy when mapped). */
  raw(ordinal: number): Buffer {
    const part = this.partOf(ordinal);
    const [from, to] = this.span(part, ordinal);
    return part.shard.bytes(part.dataStart + from, to - from);
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

  /**
   * One decoded record. When mapped, msgpackr decodes straight out of the mapping (no Buffer
   * per read); otherwise from a positioned read.
   */
  get<T = Record<string, unknown>>(ordinal: number): T {
    const part = this.partOf(ordinal);
    try {
      if (part.mapping) {
        const [from, to] = this.span(part, ordinal);
        const start = part.dataStart + from;
        part.shard.verify(start, to - from);
        return this.unpackr.unpack(part.mapping, { start, end: part.dataStart + to }) as T;
      }
      return this.unpackr.unpack(this.raw(ordinal)) as T;
    } catch (cause) {
      if (cause instanceof FormatError) throw cause;
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
