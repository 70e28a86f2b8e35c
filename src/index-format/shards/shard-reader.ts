import { verifiedPagesOf } from './verified-pages.js';
import { createHash } from 'node:crypto';
import { BODY_OFFSET, HEADER_SIZE, PAGE_SIZE, type ShardKind } from '../constants.js';
import { crc32 } from './crc32.js';
import { ColdRate } from './cold-probe.js';
import { ColdCheckPace, ColdRead, coldReadsArmed, residentNow, type ColdRange } from './cold-reads.js';
import { FormatError } from '../errors.js';
import { openFileBytes, type FileBytes, type HeldFile, type OpenFileOptions } from './mapped-file.js';
import type { SectionEntry, ShardDirectory } from './shard-writer.js';
import { parseHeader, readDirectory, type ShardHeader } from './shard-frame.js';

export type { ShardHeader } from './shard-frame.js';

/** A byte range of a shard, in absolute file offsets. */
export interface SectionRange {
  readonly start: number;
  readonly length: number;
}

/**
 * An open shard. Opening reads the 64-byte header and the directory only (constant work,
 * whatever the body's size). Each body page is checked against its CRC the first time any read
 * touches it, so a flipped bit anywhere surfaces as E_CHECKSUM, never as wrong data.
 */
export class Shard {
  readonly header: ShardHeader;
  readonly directory: ShardDirectory;
  private readonly sectionsByName: Map<string, SectionEntry>;
  private readonly verifiedPages: Uint8Array;
  /** Whether another open shard of the same file had verified pages this one starts from. */
  readonly inheritsVerification: boolean;

  constructor(
    readonly file: FileBytes,
    expectedKind?: ShardKind,
    /** The file's identity (HeldFile.identity): shards of one file share which pages were verified. */
    readonly identity?: string,
  ) {
    this.header = parseHeader(file, expectedKind);
    this.directory = readDirectory(file, this.header);
    this.sectionsByName = new Map(this.directory.sections.map((s) => [s.name, s]));
    for (const s of this.directory.sections) {
      if (s.offset < 0 || s.length < 0 || s.offset + s.length > this.header.bodyLength) {
        throw new FormatError('E_FORMAT_HEADER', `section ${s.name} lies outside the body`, file.path);
      }
    }
    const shared = verifiedPagesOf(identity, this.header.pageCount);
    this.verifiedPages = shared.pages;
    this.inheritsVerification = shared.inherited;
  }

  get path(): string {
    return this.file.path;
  }

  get buildId(): string {
    return this.directory.buildId;
  }

  get meta(): Record<string, unknown> {
    return this.directory.meta;
  }

  hasSection(name: string): boolean {
    return this.sectionsByName.has(name);
  }

  section(name: string): SectionRange {
    const s = this.sectionsByName.get(name);
    if (!s) throw new FormatError('E_FORMAT_HEADER', `missing section ${name}`, this.path);
    return { start: BODY_OFFSET + s.offset, length: s.length };
  }

  /** Asks for [start, start+length) to be read ahead (mapped files; see FileBytes.prefetch). */
  prefetch(start: number, length: number): void {
    this.file.prefetch(start, length);
  }

  /**
   * Whether a lookup of many keys or records should ask for all their pages before it reads any
   * (OpenFileOptions.readAhead): then their disk reads wait together instead of one after another.
   */
  readsAhead = false;
  /** How often this shard's lookups found their first page on disk lately (cold-probe.ts). */
  readonly coldRate = new ColdRate();
  private readonly coldChecks = new ColdCheckPace();

  /**
   * While a request runs armed (cold-reads.ts) and this shard reads ahead: the bytes to bring in
   * before [start, start+length) can be read without waiting for the disk (the range, and its
   * page CRCs when a page is not verified yet), added to `into`; nothing when they are in memory
   * or when no check is due, or the range is longer than COLD_READ_MAX. Says whether it added any.
   */
  addCold(into: ColdRange[], start: number, length: number): boolean {
    if (!this.readsAhead || length <= 0 || length > COLD_READ_MAX || !coldReadsArmed() || !this.coldChecks.due()) return false;
    const before = into.length;
    if (!residentNow(this.file, start, length)) into.push({ file: this.file, start, length });
    const bodyStart = start - BODY_OFFSET;
    const first = Math.floor(bodyStart / PAGE_SIZE);
    const last = Math.floor((bodyStart + length - 1) / PAGE_SIZE);
    if (first >= 0 && last < this.header.pageCount) {
      let unverified = false;
      for (let page = first; page <= last && !unverified; page++) unverified = this.verifiedPages[page] === 0;
      const crc = { file: this.file, start: this.header.crcTableOffset + first * 4, length: (last - first + 1) * 4 };
      if (unverified && !residentNow(this.file, crc.start, crc.length)) into.push(crc);
    }
    this.coldChecks.observe(into.length > before);
    return into.length > before;
  }

  /** Bytes [start, start+length) of the file, every page they touch verified. */
  bytes(start: number, length: number): Buffer {
    if (length > 0) this.verifyRange(start, length);
    return this.file.read(start, length);
  }

  u32(at: number): number {
    return this.bytes(at, 4).readUInt32LE(0);
  }

  /** A zero-copy Uint32Array over a verified range when mapped and aligned, else a copy. */
  u32Array(start: number, count: number): Uint32Array {
    const buf = this.bytes(start, count * 4);
    if (buf.byteOffset % 4 === 0) return new Uint32Array(buf.buffer, buf.byteOffset, count);
    const copy = new Uint32Array(count);
    for (let i = 0; i < count; i++) copy[i] = buf.readUInt32LE(i * 4);
    return copy;
  }

  /**
   * The whole mapped file when the shard is memory-mapped (else undefined), for zero-copy reads
   * of ranges already checked with `verify`.
   */
  get mapping(): Buffer | undefined {
    return this.file.mapping;
  }

  /** Checks that [start, start+length) lies in the body and every page it touches passes its CRC. */
  verify(start: number, length: number): void {
    if (length > 0) this.verifyRange(start, length);
  }

  /**
   * `verify` of every section cut into steps of at most `chunkBytes`: what first use of each would
   * do whole, for a warm-up to run a step at a time.
   */
  verificationSteps(chunkBytes: number): (() => void)[] {
    const steps: (() => void)[] = [];
    for (const section of this.directory.sections) {
      const { start, length } = this.section(section.name);
      for (let at = 0; at < length; at += chunkBytes) steps.push(() => this.verify(start + at, Math.min(chunkBytes, length - at)));
    }
    return steps;
  }

  private verifyRange(start: number, length: number): void {
    const bodyStart = start - BODY_OFFSET;
    if (bodyStart < 0 || bodyStart + length > this.header.bodyLength) {
      throw new FormatError('E_FORMAT_HEADER', `read of ${length} bytes at ${start} outside the body`, this.path);
    }
    if (this.readsAhead && coldReadsArmed()) {
      const cold: ColdRange[] = [];
      if (this.addCold(cold, start, length)) throw new ColdRead(cold);
    }
    const first = Math.floor(bodyStart / PAGE_SIZE);
    const last = Math.floor((bodyStart + length - 1) / PAGE_SIZE);
    if (last - first + 1 < PREFETCH_MIN_PAGES) {
      for (let page = first; page <= last; page++) if (this.verifiedPages[page] === 0) this.verifyPage(page);
      return;
    }
    // A long range (a search section's first use, a warm-up's step): read ahead a step at a time,
    // since a mapped shard is advised MADV_RANDOM and would otherwise fault its pages in one by one.
    for (let step = first; step <= last; step += PREFETCH_PAGES) {
      const end = Math.min(last, step + PREFETCH_PAGES - 1);
      let page = step;
      while (page <= end && this.verifiedPages[page] === 1) page++;
      if (page > end) continue;
      const from = BODY_OFFSET + page * PAGE_SIZE;
      this.file.prefetch(from, Math.min(BODY_OFFSET + (end + 1) * PAGE_SIZE, BODY_OFFSET + this.header.bodyLength) - from);
      for (; page <= end; page++) if (this.verifiedPages[page] === 0) this.verifyPage(page);
    }
  }

  private verifyPage(page: number): void {
    const from = BODY_OFFSET + page * PAGE_SIZE;
    const length = Math.min(PAGE_SIZE, this.header.bodyLength - page * PAGE_SIZE);
    const expected = this.file.read(this.header.crcTableOffset + page * 4, 4).readUInt32LE(0);
    if (crc32(this.file.read(from, length)) !== expected) {
      throw new FormatError('E_CHECKSUM', `page ${page} (bytes ${from}..${from + length}) fails its CRC`, this.path);
    }
    this.verifiedPages[page] = 1;
  }

  /** Checks every page and returns the SHA-256 of the whole file (for `omm verify`). */
  verifyAll(): string {
    return runSteps(this.verifySteps());
  }

  /**
   * `verifyAll` in steps of about `stepBytes`, yielding between them so a caller can let other
   * work run (the server verifies a new snapshot while it keeps answering).
   */
  *verifySteps(stepBytes = 1 << 20): Generator<void, string> {
    this.verifyPadding();
    const pagesPerStep = Math.max(1, Math.floor(stepBytes / PAGE_SIZE));
    for (let page = 0; page < this.header.pageCount; page++) {
      this.verifyPage(page);
      if ((page + 1) % pagesPerStep === 0) yield;
    }
    const hash = createHash('sha256');
    for (let at = 0; at < this.file.size; at += stepBytes) {
      hash.update(this.file.read(at, Math.min(stepBytes, this.file.size - at)));
      yield;
    }
    return hash.digest('hex');
  }

  /**
   * The frame's padding is zero: the header page past the 64-byte header, the gap between the body
   * and the directory, and the one before the page-CRC table. With the header, directory and page
   * CRCs, every byte of a shard is then checked, the manifest's included (it is listed in no
   * manifest, so no SHA-256 covers it).
   */
  private verifyPadding(): void {
    const { bodyLength, directoryOffset, directoryLength, crcTableOffset } = this.header;
    const gaps: [number, number][] = [
      [HEADER_SIZE, BODY_OFFSET],
      [BODY_OFFSET + bodyLength, directoryOffset],
      [directoryOffset + directoryLength, crcTableOffset],
    ];
    for (const [from, to] of gaps) {
      if (to <= from) continue;
      const bytes = this.file.read(from, to - from);
      const at = bytes.findIndex((b) => b !== 0);
      if (at >= 0) throw new FormatError('E_CHECKSUM', `padding byte ${from + at} (of ${from}..${to}) is not zero`, this.path);
    }
  }

  close(): void {
    this.file.close();
  }
}

/** Runs work written as steps (a generator yielding between them) to the end, without pausing. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The longest read brought in before a request runs again (cold-reads.ts): a longer one (a search
 * section's first use) is read a megabyte at a time as ever, not in one fetch memory may not hold.
 */
const COLD_READ_MAX = 1 << 20;
/** Pages of a long verification read ahead at a time (1 MiB), for ranges of at least PREFETCH_MIN_PAGES. */
const PREFETCH_PAGES = 256;
const PREFETCH_MIN_PAGES = 32;

export function openShard(path: string | HeldFile, expectedKind?: ShardKind, options?: OpenFileOptions): Shard {
  const file = typeof path === 'string' ? openFileBytes(path, options) : path.open(options);
  try {
    const shard = new Shard(file, expectedKind, typeof path === 'string' ? undefined : path.identity);
    shard.readsAhead = options?.readAhead === true && file.mode === 'mmap';
    return shard;
  } catch (err) {
    file.close();
    throw err;
  }
}
