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
    private readonly packr: Packr,
    private readonly maxShardBytes = DEFAULT_MAX_SHARD_BYTES,
  ) {}

  add(record: unknown): void {
    if (!this.writer) this.startShard();
    const bytes = this.packr.pack(record);
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
  readonly offsetsStart: number;
}

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
        return {
          shard,
          firstOrdinal: meta.firstOrdinal,
          count: meta.count,
          dataStart: shard.section('data').start,
          offsetsStart: offsets.start,
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
    const local = ordinal - part.firstOrdinal;
    const pair = part.shard.bytes(part.offsetsStart + local * 4, 8);
    const from = pair.readUInt32LE(0);
    const to = pair.readUInt32LE(4);
    const dataLength = part.shard.section('data').length;
    if (to < from || to > dataLength) {
      throw new FormatError('E_FORMAT_RECORD', `record ${ordinal} has bad offsets`, part.shard.path);
    }
    return part.shard.bytes(part.dataStart + from, to - from);
  }

  get<T = Record<string, unknown>>(ordinal: number): T {
    const bytes = this.raw(ordinal);
    try {
      return this.unpackr.unpack(bytes) as T;
    } catch (cause) {
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
