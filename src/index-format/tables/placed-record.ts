import { FormatError } from '../errors.js';
import type { DecodedCache } from './decoded-cache.js';
import { decoderOf, type OpenRecordShard } from './record-shard.js';

/** Where a record's decoded copy lies (DecodedCache), and how to place it from its stored bytes if that slot has been written since. */
export interface KeptCopy {
  readonly cache: DecodedCache;
  readonly slot: number;
  readonly generation: number;
  readonly stored: () => PlacedRecord;
}

/**
 * A record found by RecordTable.place: `length` bytes that copyTo() writes into a buffer,
 * decompressed straight into it when the record is compressed. A response sizes its buffer from
 * the lengths of the views it holds, then has each write itself in place: no Buffer per view and
 * no second copy, which is what keeps a compressed view as cheap to send as a stored one.
 */
export class PlacedRecord {
  constructor(
    private readonly table: string,
    private readonly part: OpenRecordShard,
    private readonly ordinal: number,
    /** The stored bytes, [start, end) of the shard. */
    private readonly start: number,
    private readonly end: number,
    /** Bytes copyTo writes: the record's, or fewer (withoutLastByte). */
    readonly length: number,
    private readonly decodedLength: number,
    /** The record's decoded copy (DecodedCache), or null. */
    private readonly kept: KeptCopy | null = null,
  ) {}

  copyTo(out: Uint8Array, at: number): void {
    const { part, start, end, length, kept } = this;
    if (kept) {
      if (kept.cache.copyOut(kept.slot, kept.generation, out, at, length)) return;
      // The slot took another record since: this one from its stored bytes.
      const stored = kept.stored();
      (length === stored.length ? stored : stored.withoutLastByte()).copyTo(out, at);
      return;
    }
    if (!part.dictionary) {
      if (part.mapped) part.shard.verify(start, length);
      out.set(part.mapped ? part.mapped.subarray(start, start + length) : part.shard.bytes(start, length), at);
      return;
    }
    const decoder = decoderOf(part);
    const n = part.mapped
      ? decoder.decodeKnown(part.mapped, start, end, this.decodedLength)
      : decoder.decodeKnown(part.shard.bytes(start, end - start), 0, end - start, this.decodedLength);
    if (n < 0) throw new FormatError('E_FORMAT_RECORD', `record ${this.ordinal} of ${this.table} does not decompress`, part.shard.path);
    out.set(decoder.outputBytes.subarray(decoder.outputAt, decoder.outputAt + length), at);
  }

  /** The record without its last byte (a view's closing brace, for a response that adds members to it). */
  withoutLastByte(): PlacedRecord {
    return new PlacedRecord(this.table, this.part, this.ordinal, this.start, this.end, this.length - 1, this.decodedLength, this.kept);
  }
}
