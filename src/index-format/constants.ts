/** Byte-level constants of the snapshot format. docs/format.md describes each. */

/** First 8 bytes of every shard file. */
export const SHARD_MAGIC = Buffer.from('OMMSHARD', 'latin1');
export const FORMAT_MAJOR = 1;
/**
 * 1: record tables may be compressed (omm-lz, record-table.ts). A reader of 1.0 finds no `data`
 * section in a compressed shard and refuses the snapshot when opening it; this reader reads both.
 */
export const FORMAT_MINOR = 1;

/** Size of the fixed header; the body starts at the next page boundary. */
export const HEADER_SIZE = 64;
/** Checksum granularity of the body: every page has its own CRC-32C-free zlib CRC-32. */
export const PAGE_SIZE = 4096;
/** The body starts here, so that it is page-aligned in a mapping. */
export const BODY_OFFSET = PAGE_SIZE;
/** Sections inside a body are aligned to this many bytes (so u32/f64 views are aligned). */
export const SECTION_ALIGN = 8;
/** A directory larger than this is taken as corruption, not read. */
export const MAX_DIRECTORY_BYTES = 64 << 20;

/** The kinds of shard. Four ASCII bytes in the header. */
export const SHARD_KINDS = {
  manifest: 'MANI',
  records: 'RECS',
  keys: 'KEYS',
  arrays: 'ARRS',
  blob: 'BLOB',
} as const;
export type ShardKind = (typeof SHARD_KINDS)[keyof typeof SHARD_KINDS];

/** Header field offsets. */
export const H = {
  magic: 0,
  major: 8,
  minor: 10,
  kind: 12,
  headerCrc: 16,
  directoryLength: 20,
  pageSize: 24,
  pageCount: 28,
  bodyLength: 32,
  directoryOffset: 40,
  totalLength: 48,
  crcTableOffset: 56,
} as const;

export const alignUp = (n: number, to: number): number => Math.ceil(n / to) * to;
