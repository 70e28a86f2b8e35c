import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { nativeMmapAvailable, openFileBytes, wholeMapping } from '../../index-format/shards/mapped-file.js';

/**
 * Column files: per-ordinal values written once, front to back, then read back at random
 * through a memory mapping. A mapped column costs file pages (which the kernel can drop and
 * read again), not the compile's own memory: this is how per-song state lives on disk.
 */

const CHUNK = 1 << 20;

/** Appends bytes to a file through one buffer. */
class AppendFile {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  private fill = 0;
  bytes = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  reserve(n: number): Buffer {
    if (this.fill + n > this.buffer.length) this.flush();
    return this.buffer;
  }

  get at(): number {
    return this.fill;
  }

  advance(n: number): void {
    this.fill += n;
    this.bytes += n;
  }

  write(bytes: Uint8Array): void {
    if (bytes.length > this.buffer.length) {
      this.flush();
      for (let off = 0; off < bytes.length; ) off += writeSync(this.fd, bytes, off, bytes.length - off);
      this.bytes += bytes.length;
      return;
    }
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.fill);
    this.advance(bytes.length);
  }

  flush(): void {
    for (let off = 0; off < this.fill; ) off += writeSync(this.fd, this.buffer, off, this.fill - off);
    this.fill = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** u32 or f64 values in ordinal order. */
export class NumberColumnWriter {
  private readonly file: AppendFile;
  private readonly width: number;
  length = 0;

  constructor(
    readonly path: string,
    readonly kind: 'u32' | 'f64',
  ) {
    this.file = new AppendFile(path);
    this.width = kind === 'u32' ? 4 : 8;
  }

  push(value: number): void {
    const buffer = this.file.reserve(this.width);
    if (this.kind === 'u32') buffer.writeUInt32LE(value >>> 0, this.file.at);
    else buffer.writeDoubleLE(value, this.file.at);
    this.file.advance(this.width);
    this.length++;
  }

  /** Appends a whole array of values at once. */
  pushAll(values: Uint32Array | Float64Array): void {
    this.file.write(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    this.length += values.length;
  }

  finish(): void {
    this.file.close();
  }
}

/** The whole file as bytes: a mapping when the native addon loads, else read into memory. */
function fileBytes(path: string): Buffer {
  if (nativeMmapAvailable()) {
    const file = openFileBytes(path, { mode: 'mmap', advice: 'normal', whole: true });
    return wholeMapping(file);
  }
  return readFileSync(path);
}

/** A u32 column file as a Uint32Array over its mapping. */
export function mapU32Column(path: string): Uint32Array {
  const bytes = fileBytes(path);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
}

/** An f64 column file as a Float64Array over its mapping. */
export function mapF64Column(path: string): Float64Array {
  const bytes = fileBytes(path);
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 3);
}

/** Strings in ordinal order: UTF-8 bytes in `<path>.data`, f64 end offsets in `<path>.ends`. */
export class StringColumnWriter {
  private readonly data: AppendFile;
  private readonly ends: NumberColumnWriter;

  constructor(readonly path: string) {
    this.data = new AppendFile(`${path}.data`);
    this.ends = new NumberColumnWriter(`${path}.ends`, 'f64');
  }

  get length(): number {
    return this.ends.length;
  }

  push(value: string): void {
    const max = value.length * 3;
    if (max <= CHUNK) {
      const buffer = this.data.reserve(max);
      this.data.advance(buffer.write(value, this.data.at, 'utf8'));
    } else {
      this.data.write(Buffer.from(value, 'utf8'));
    }
    this.ends.push(this.data.bytes);
  }

  finish(): void {
    this.data.close();
    this.ends.finish();
  }
}

/** A finished string column, read at random. */
export class StringColumn {
  readonly length: number;

  private constructor(
    private readonly data: Buffer,
    private readonly ends: Float64Array,
  ) {
    this.length = ends.length;
  }

  static open(path: string): StringColumn {
    return new StringColumn(fileBytes(`${path}.data`), mapF64Column(`${path}.ends`));
  }

  get(i: number): string {
    return this.data.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** The UTF-8 bytes of entry i (a view, valid while the column is referenced). */
  bytes(i: number): Buffer {
    return this.data.subarray(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}

/** Lists of u32 by ordinal (genre ids): values in `<path>.values`, f64 end offsets in `<path>.ends`. */
export class ListColumnWriter {
  private readonly values: NumberColumnWriter;
  private readonly ends: NumberColumnWriter;

  constructor(readonly path: string) {
    this.values = new NumberColumnWriter(`${path}.values`, 'u32');
    this.ends = new NumberColumnWriter(`${path}.ends`, 'f64');
  }

  get length(): number {
    return this.ends.length;
  }

  push(list: ArrayLike<number> | undefined): void {
    if (list) for (let i = 0; i < list.length; i++) this.values.push(list[i]);
    this.ends.push(this.values.length);
  }

  finish(): void {
    this.values.finish();
    this.ends.finish();
  }
}

/** A finished list column, read at random. */
export class ListColumn {
  readonly length: number;

  private constructor(
    private readonly values: Uint32Array,
    private readonly ends: Float64Array,
  ) {
    this.length = ends.length;
  }

  static open(path: string): ListColumn {
    return new ListColumn(mapU32Column(`${path}.values`), mapF64Column(`${path}.ends`));
  }

  /** Entry i (a view over the mapping; empty when the list is). */
  get(i: number): Uint32Array {
    return this.values.subarray(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}
