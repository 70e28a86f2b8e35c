import { renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Packr } from 'msgpackr';
import { SHARD_KINDS } from '../constants.js';
import { RECORD_ENCODING, type RecordShardMeta } from './record-table.js';
import { ShardWriter, type WrittenShard } from '../shards/shard-writer.js';
import { createRecordEncoder, type RecordEncoder } from '../codec/lz-encoder.js';
import { GrowableU32, u32Bytes } from '../u32.js';

export const DEFAULT_MAX_SHARD_BYTES = 512 << 20;
/**
 * The preset dictionary of a compressed table: its first records, this many bytes of them.
 * 64 KB is what a match's u16 distance reaches; measured (docs/scale.md), a dictionary trained
 * by coverage (after zstd's COVER) did no better than the table's own first records.
 */
export const RECORD_DICTIONARY_BYTES = 64_000;
/** A table whose records come to less than this is stored as it is: its dictionary would outweigh the saving. */
export const COMPRESS_FROM_BYTES = 2 * RECORD_DICTIONARY_BYTES;

/**
 * Writes records (msgpackr with shared structures, or bytes as they are) in ordinal order,
 * starting a new shard whenever the current one passes `maxShardBytes`.
 *
 * Records are compressed one by one with omm-lz (lz-codec.ts) against a dictionary made of the
 * table's first records: the writer holds the first COMPRESS_FROM_BYTES back, takes the
 * dictionary from them, then streams. Every shard carries the dictionary (so each stands alone);
 * sections `dictionary`, `packed` (the compressed records back to back) and `offsets` (u32 x
 * count+1, relative to `packed`). A small table is stored plain, as before compression: `data`
 * and `offsets`. A reader older than format 1.1 finds no `data` in a compressed shard and refuses
 * the snapshot when it opens it.
 */
export interface RecordTableWriterOptions {
  /** A new shard starts once the current one passes this many bytes. */
  readonly maxShardBytes?: number;
  /**
   * The ordinal of the first record added, for a table written in ranges by several writers
   * at once (each with its own dictionary); joinRecordTableParts names their shards in order.
   */
  readonly firstOrdinal?: number;
}

export class RecordTableWriter {
  readonly shards: WrittenShard[] = [];
  private writer: ShardWriter | null = null;
  private offsets = new GrowableU32();
  private dataStart = 0;
  private maxRecordBytes = 0;
  private firstOrdinal = 0;
  private next = 0;
  /** The first records, held until there are enough to choose between plain and compressed. */
  private held: Buffer[] | null = [];
  private heldBytes = 0;
  private encoder: RecordEncoder | null = null;

  private readonly maxShardBytes: number;
  private readonly startOrdinal: number;

  constructor(
    private readonly dir: string,
    readonly table: string,
    private readonly buildId: string,
    private readonly packr: Packr | null,
    options: RecordTableWriterOptions = {},
  ) {
    this.maxShardBytes = options.maxShardBytes ?? DEFAULT_MAX_SHARD_BYTES;
    this.next = this.firstOrdinal = this.startOrdinal = options.firstOrdinal ?? 0;
  }

  add(record: unknown): void {
    if (!this.packr) throw new Error(`record table ${this.table} stores bytes only`);
    this.addBytes(this.packr.pack(record));
  }

  /** Adds a record that is already bytes (a pre-rendered view). */
  addBytes(bytes: Uint8Array): void {
    if (this.held) {
      // A copy: msgpackr reuses the buffer it packs into.
      this.held.push(Buffer.from(bytes));
      this.heldBytes += bytes.length;
      if (this.heldBytes >= COMPRESS_FROM_BYTES) {
        this.encoder = createRecordEncoder(Buffer.concat(this.held).subarray(0, RECORD_DICTIONARY_BYTES));
        this.release();
      }
      return;
    }
    this.store(bytes);
  }

  /** Writes the held records (compressed when an encoder was made for them). */
  private release(): void {
    const held = this.held!;
    this.held = null;
    for (const bytes of held) this.store(bytes);
  }

  private store(bytes: Uint8Array): void {
    if (!this.writer) this.startShard();
    const writer = this.writer!;
    this.offsets.push(writer.bytesWritten - this.dataStart);
    writer.write(this.encoder ? this.encoder.encode(bytes) : bytes);
    if (bytes.length > this.maxRecordBytes) this.maxRecordBytes = bytes.length;
    this.next++;
    if (writer.bytesWritten >= this.maxShardBytes) this.finishShard();
  }

  private startShard(): void {
    // A writer of a later range names its shards apart; joinRecordTableParts numbers them all.
    const range = this.startOrdinal === 0 ? '' : `.from${this.startOrdinal}`;
    const name = `${this.table}${range}.${String(this.shards.length).padStart(4, '0')}.rec`;
    this.writer = new ShardWriter(join(this.dir, name), SHARD_KINDS.records, this.buildId);
    if (this.encoder) this.writer.section('dictionary', this.encoder.dictionary);
    this.writer.beginSection(this.encoder ? 'packed' : 'data');
    this.dataStart = this.writer.bytesWritten;
    this.offsets = new GrowableU32();
    this.maxRecordBytes = 0;
    this.firstOrdinal = this.next;
  }

  private finishShard(): void {
    const writer = this.writer!;
    const count = this.offsets.length;
    this.offsets.push(writer.bytesWritten - this.dataStart);
    writer.endSection();
    writer.section('offsets', u32Bytes(this.offsets.view()));
    const meta: RecordShardMeta = this.encoder
      ? { table: this.table, firstOrdinal: this.firstOrdinal, count, encoding: RECORD_ENCODING, maxRecordBytes: this.maxRecordBytes }
      : { table: this.table, firstOrdinal: this.firstOrdinal, count };
    this.shards.push(writer.finish({ ...meta }));
    this.writer = null;
  }

  /** Closes the last shard; an empty table still gets one (empty) shard. */
  finish(): WrittenShard[] {
    if (this.held) this.release();
    if (!this.writer && this.shards.length === 0) this.startShard();
    if (this.writer) this.finishShard();
    return this.shards;
  }
}

/**
 * The shards of one table written in ranges by several writers (each given its range's
 * firstOrdinal), in ordinal order, renamed to the names a single writer gives: `<table>.0000.rec`
 * onwards. Every shard stands alone (its own dictionary), so readers need nothing else.
 */
export function joinRecordTableParts(table: string, parts: readonly (readonly WrittenShard[])[]): WrittenShard[] {
  const joined: WrittenShard[] = [];
  for (const shards of parts) {
    for (const shard of shards) {
      const path = join(dirname(shard.path), `${table}.${String(joined.length).padStart(4, '0')}.rec`);
      if (path !== shard.path) renameSync(shard.path, path);
      joined.push({ ...shard, path });
    }
  }
  return joined;
}
