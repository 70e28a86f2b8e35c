import { createLzDecoder, type LzDecoder } from '../codec/lz-decoder.js';
import { FormatError } from '../errors.js';
import type { SectionRange, Shard } from '../shards/shard-reader.js';

/* One shard of a record table as RecordTable holds it open: its layout, checked, and its decoder. */

/** A shard of a record table holds a contiguous range of ordinals: [firstOrdinal, +count). */
export interface RecordShardMeta {
  readonly table: string;
  readonly firstOrdinal: number;
  readonly count: number;
  /** `omm-lz1` when the records are compressed (sections `dictionary` and `packed`); absent when stored as they are (`data`). */
  readonly encoding?: string;
  /** The longest record of the shard, decoded: a compressed record saying more is corrupt. */
  readonly maxRecordBytes?: number;
}

export const RECORD_ENCODING = 'omm-lz1';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export interface OpenRecordShard {
  readonly shard: Shard;
  readonly firstOrdinal: number;
  readonly count: number;
  /** The `packed` section of a compressed shard, else `data`. */
  readonly dataStart: number;
  readonly dataLength: number;
  readonly offsetsStart: number;
  /** The offsets section as a zero-copy view when the shard is mapped and aligned. */
  readonly offsets: Uint32Array | null;
  readonly mapping: Buffer | undefined;
  /** The mapping as a plain Uint8Array: the hot paths slice it without making Buffers. */
  readonly mapped: Uint8Array | undefined;
  /** A compressed shard's dictionary section (null when stored plain) and longest record. */
  readonly dictionary: SectionRange | null;
  readonly maxRecordBytes: number;
  /** Made on the first read: it copies the dictionary in. */
  decoder: LzDecoder | null;
}

/** The shard's decoder, made on its first read (it copies the dictionary in). */
export function decoderOf(part: OpenRecordShard): LzDecoder {
  return (part.decoder ??= createLzDecoder(part.shard.bytes(part.dictionary!.start, part.dictionary!.length), part.maxRecordBytes));
}

/** A shard's layout, checked: a plain one has `data`, a compressed one `dictionary` and `packed` in an encoding this reader knows. */
export function openPart(table: string, shard: Shard): OpenRecordShard {
  const meta = shard.meta as unknown as RecordShardMeta;
  if (meta.table !== table || !Number.isInteger(meta.firstOrdinal) || !Number.isInteger(meta.count)) {
    throw new FormatError('E_SNAPSHOT_MISMATCH', `shard is not part of table ${table}`, shard.path);
  }
  const offsets = shard.section('offsets');
  if (offsets.length !== (meta.count + 1) * 4) {
    throw new FormatError('E_FORMAT_HEADER', `offsets section does not hold ${meta.count + 1} entries`, shard.path);
  }
  const compressed = meta.encoding !== undefined;
  if (compressed && (meta.encoding !== RECORD_ENCODING || !Number.isInteger(meta.maxRecordBytes) || meta.maxRecordBytes! < 0)) {
    throw new FormatError(
      'E_FORMAT_HEADER',
      `records in encoding ${JSON.stringify(meta.encoding)}, which this reader does not know (it reads ${RECORD_ENCODING})`,
      shard.path,
    );
  }
  const data = shard.section(compressed ? 'packed' : 'data');
  const mapping = shard.mapping;
  const aligned = mapping !== undefined && LITTLE_ENDIAN && (mapping.byteOffset + offsets.start) % 4 === 0;
  return {
    shard,
    firstOrdinal: meta.firstOrdinal,
    count: meta.count,
    dataStart: data.start,
    dataLength: data.length,
    offsetsStart: offsets.start,
    offsets: aligned ? new Uint32Array(mapping.buffer, mapping.byteOffset + offsets.start, meta.count + 1) : null,
    mapping,
    mapped: mapping && new Uint8Array(mapping.buffer, mapping.byteOffset, mapping.length),
    dictionary: compressed ? shard.section('dictionary') : null,
    maxRecordBytes: compressed ? meta.maxRecordBytes! : 0,
    decoder: null,
  };
}
