import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { pack } from 'msgpackr';
import { alignUp, BODY_OFFSET, FORMAT_MAJOR, FORMAT_MINOR, H, HEADER_SIZE, PAGE_SIZE, SECTION_ALIGN, SHARD_MAGIC, type ShardKind } from '../constants.js';
import { crc32 } from './crc32.js';

export interface SectionEntry {
  readonly name: string;
  /** Offset from the start of the body. */
  readonly offset: number;
  readonly length: number;
}

/** What a shard's directory holds: its sections and kind-specific metadata. */
export interface ShardDirectory {
  readonly buildId: string;
  readonly sections: readonly SectionEntry[];
  readonly meta: Record<string, unknown>;
}

export interface WrittenShard {
  readonly path: string;
  readonly kind: ShardKind;
  readonly size: number;
  readonly sha256: string;
}

const WRITE_CHUNK = 1 << 20;

/**
 * Writes one shard file front to back: a page of header, the body (named sections), the
 * directory, and a CRC-32 per body page. The header goes in last, at offset 0, once every size
 * is known. Bodies stream through: memory stays at one chunk whatever the shard's size.
 */
export class ShardWriter {
  private readonly fd: number;
  private readonly sections: SectionEntry[] = [];
  private readonly pageCrcs: number[] = [];
  private pending: Buffer = Buffer.allocUnsafe(WRITE_CHUNK);
  private pendingLength = 0;
  /** Bytes of the body written so far (flushed or pending). */
  private bodyLength = 0;
  private open: { name: string; start: number } | null = null;
  private pageCrc = 0;
  private pageFill = 0;
  /** Body bytes already on disk. */
  private flushed = 0;

  constructor(
    readonly path: string,
    readonly kind: ShardKind,
    readonly buildId: string,
  ) {
    this.fd = openSync(path, 'w+');
    writeSync(this.fd, Buffer.alloc(BODY_OFFSET), 0, BODY_OFFSET, 0);
  }

  get bytesWritten(): number {
    return this.bodyLength;
  }

  beginSection(name: string): void {
    if (this.open) throw new Error(`section ${this.open.name} is still open`);
    this.pad(alignUp(this.bodyLength, SECTION_ALIGN) - this.bodyLength);
    this.open = { name, start: this.bodyLength };
  }

  endSection(): void {
    if (!this.open) throw new Error('no open section');
    this.sections.push({
      name: this.open.name,
      offset: this.open.start,
      length: this.bodyLength - this.open.start,
    });
    this.open = null;
  }

  /** Adds a whole section at once. */
  section(name: string, data: Uint8Array): void {
    this.beginSection(name);
    this.write(data);
    this.endSection();
  }

  write(data: Uint8Array): void {
    if (!this.open) throw new Error('write outside a section');
    let from = 0;
    while (from < data.length) {
      const n = Math.min(data.length - from, WRITE_CHUNK - this.pendingLength);
      this.pending.set(data.subarray(from, from + n), this.pendingLength);
      this.pendingLength += n;
      from += n;
      if (this.pendingLength === WRITE_CHUNK) this.flush();
    }
    this.bodyLength += data.length;
  }

  private pad(n: number): void {
    if (n <= 0) return;
    const wasOpen = this.open;
    this.open = wasOpen ?? { name: '', start: 0 };
    this.write(Buffer.alloc(n));
    this.open = wasOpen;
  }

  private flush(): void {
    if (this.pendingLength === 0) return;
    const chunk = this.pending.subarray(0, this.pendingLength);
    this.checksumPages(chunk);
    writeSync(this.fd, chunk, 0, chunk.length, BODY_OFFSET + this.flushed);
    this.flushed += chunk.length;
    this.pendingLength = 0;
  }

  private checksumPages(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(PAGE_SIZE - this.pageFill, chunk.length - at);
      this.pageCrc = crc32(chunk.subarray(at, at + n), this.pageCrc);
      this.pageFill += n;
      at += n;
      if (this.pageFill === PAGE_SIZE) {
        this.pageCrcs.push(this.pageCrc);
        this.pageCrc = 0;
        this.pageFill = 0;
      }
    }
  }

  /** Writes directory, page CRCs and header; fsyncs; returns the file's size and SHA-256. */
  finish(meta: Record<string, unknown> = {}): WrittenShard {
    if (this.open) throw new Error(`section ${this.open.name} is still open`);
    this.flush();
    if (this.pageFill > 0) {
      this.pageCrcs.push(this.pageCrc);
      this.pageFill = 0;
    }
    const directory: ShardDirectory = { buildId: this.buildId, sections: this.sections, meta };
    const directoryBytes = pack(directory);
    const directoryRegion = Buffer.alloc(4 + directoryBytes.length);
    directoryRegion.writeUInt32LE(crc32(directoryBytes), 0);
    directoryRegion.set(directoryBytes, 4);

    const bodyEnd = BODY_OFFSET + this.bodyLength;
    const directoryOffset = alignUp(bodyEnd, SECTION_ALIGN);
    const crcTableOffset = alignUp(directoryOffset + directoryRegion.length, 4);
    const crcTable = Buffer.alloc(this.pageCrcs.length * 4);
    this.pageCrcs.forEach((crc, i) => crcTable.writeUInt32LE(crc, i * 4));
    const totalLength = crcTableOffset + crcTable.length;

    const tail = Buffer.alloc(totalLength - bodyEnd);
    tail.set(directoryRegion, directoryOffset - bodyEnd);
    tail.set(crcTable, crcTableOffset - bodyEnd);
    writeSync(this.fd, tail, 0, tail.length, bodyEnd);

    const header = encodeHeader({
      kind: this.kind,
      directoryLength: directoryRegion.length,
      pageCount: this.pageCrcs.length,
      bodyLength: this.bodyLength,
      directoryOffset,
      totalLength,
      crcTableOffset,
    });
    writeSync(this.fd, header, 0, header.length, 0);
    fsyncSync(this.fd);
    const sha256 = digestFd(this.fd, totalLength);
    closeSync(this.fd);
    return { path: this.path, kind: this.kind, size: totalLength, sha256 };
  }
}

export interface HeaderFields {
  kind: ShardKind;
  directoryLength: number;
  pageCount: number;
  bodyLength: number;
  directoryOffset: number;
  totalLength: number;
  crcTableOffset: number;
}

export function encodeHeader(f: HeaderFields): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  SHARD_MAGIC.copy(header, H.magic);
  header.writeUInt16LE(FORMAT_MAJOR, H.major);
  header.writeUInt16LE(FORMAT_MINOR, H.minor);
  header.write(f.kind, H.kind, 4, 'latin1');
  header.writeUInt32LE(f.directoryLength, H.directoryLength);
  header.writeUInt32LE(PAGE_SIZE, H.pageSize);
  header.writeUInt32LE(f.pageCount, H.pageCount);
  header.writeBigUInt64LE(BigInt(f.bodyLength), H.bodyLength);
  header.writeBigUInt64LE(BigInt(f.directoryOffset), H.directoryOffset);
  header.writeBigUInt64LE(BigInt(f.totalLength), H.totalLength);
  header.writeBigUInt64LE(BigInt(f.crcTableOffset), H.crcTableOffset);
  header.writeUInt32LE(crc32(header), H.headerCrc); // computed with the CRC field still zero
  return header;
}

function digestFd(fd: number, length: number): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(WRITE_CHUNK);
  for (let at = 0; at < length; ) {
    const n = readSync(fd, chunk, 0, Math.min(WRITE_CHUNK, length - at), at);
    if (n <= 0) throw new Error(`short read while digesting shard at ${at}`);
    hash.update(chunk.subarray(0, n));
    at += n;
  }
  return hash.digest('hex');
}
