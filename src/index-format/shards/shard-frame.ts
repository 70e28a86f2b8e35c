import { unpack } from 'msgpackr';
import { BODY_OFFSET, FORMAT_MAJOR, H, HEADER_SIZE, MAX_DIRECTORY_BYTES, PAGE_SIZE, SHARD_MAGIC, type ShardKind } from '../constants.js';
import { crc32 } from './crc32.js';
import { FormatError } from '../errors.js';
import type { FileBytes } from './mapped-file.js';
import type { ShardDirectory } from './shard-writer.js';

/* A shard's frame as a reader first meets it: the 64-byte header, then the directory of sections. */

export interface ShardHeader {
  readonly major: number;
  readonly minor: number;
  readonly kind: ShardKind;
  readonly pageCount: number;
  readonly bodyLength: number;
  readonly directoryOffset: number;
  readonly directoryLength: number;
  readonly crcTableOffset: number;
  readonly totalLength: number;
}

export function parseHeader(file: FileBytes, expectedKind?: ShardKind): ShardHeader {
  if (file.size < SHARD_MAGIC.length) {
    throw new FormatError('E_FORMAT_TRUNCATED', `file of ${file.size} bytes is shorter than a header`, file.path);
  }
  if (!file.read(0, SHARD_MAGIC.length).equals(SHARD_MAGIC)) {
    throw new FormatError('E_FORMAT_MAGIC', 'not an omm shard (bad magic)', file.path);
  }
  if (file.size < HEADER_SIZE) {
    throw new FormatError('E_FORMAT_TRUNCATED', `file of ${file.size} bytes is shorter than a header`, file.path);
  }
  const raw = Buffer.from(file.read(0, HEADER_SIZE));
  const major = raw.readUInt16LE(H.major);
  if (major !== FORMAT_MAJOR) {
    throw new FormatError('E_FORMAT_VERSION', `format version ${major}.x; this reader reads ${FORMAT_MAJOR}.x`, file.path);
  }
  const storedCrc = raw.readUInt32LE(H.headerCrc);
  raw.writeUInt32LE(0, H.headerCrc);
  if (crc32(raw) !== storedCrc) {
    throw new FormatError('E_CHECKSUM', 'header fails its CRC', file.path);
  }
  const header: ShardHeader = {
    major,
    minor: raw.readUInt16LE(H.minor),
    kind: raw.toString('latin1', H.kind, H.kind + 4) as ShardKind,
    pageCount: raw.readUInt32LE(H.pageCount),
    bodyLength: Number(raw.readBigUInt64LE(H.bodyLength)),
    directoryOffset: Number(raw.readBigUInt64LE(H.directoryOffset)),
    directoryLength: raw.readUInt32LE(H.directoryLength),
    crcTableOffset: Number(raw.readBigUInt64LE(H.crcTableOffset)),
    totalLength: Number(raw.readBigUInt64LE(H.totalLength)),
  };
  if (file.size < header.totalLength) {
    throw new FormatError('E_FORMAT_TRUNCATED', `file has ${file.size} of its ${header.totalLength} bytes`, file.path);
  }
  if (file.size > header.totalLength) {
    throw new FormatError('E_FORMAT_HEADER', `file has ${file.size - header.totalLength} bytes past its end`, file.path);
  }
  const pagesNeeded = Math.ceil(header.bodyLength / PAGE_SIZE);
  if (
    raw.readUInt32LE(H.pageSize) !== PAGE_SIZE ||
    header.pageCount !== pagesNeeded ||
    header.directoryOffset < BODY_OFFSET + header.bodyLength ||
    header.directoryLength < 4 ||
    header.directoryLength > MAX_DIRECTORY_BYTES ||
    header.crcTableOffset < header.directoryOffset + header.directoryLength ||
    header.crcTableOffset + header.pageCount * 4 !== header.totalLength
  ) {
    throw new FormatError('E_FORMAT_HEADER', 'header fields are inconsistent', file.path);
  }
  if (expectedKind && header.kind !== expectedKind) {
    throw new FormatError('E_SNAPSHOT_MISMATCH', `expected a ${expectedKind} shard, found ${header.kind}`, file.path);
  }
  return header;
}

export function readDirectory(file: FileBytes, header: ShardHeader): ShardDirectory {
  const region = file.read(header.directoryOffset, header.directoryLength);
  const body = region.subarray(4);
  if (crc32(body) !== region.readUInt32LE(0)) {
    throw new FormatError('E_CHECKSUM', 'directory fails its CRC', file.path);
  }
  let directory: ShardDirectory;
  try {
    directory = unpack(body) as ShardDirectory;
  } catch (cause) {
    throw new FormatError('E_FORMAT_HEADER', 'directory does not decode', file.path, { cause });
  }
  if (!directory || typeof directory.buildId !== 'string' || !Array.isArray(directory.sections)) {
    throw new FormatError('E_FORMAT_HEADER', 'directory lacks build id or sections', file.path);
  }
  return directory;
}
