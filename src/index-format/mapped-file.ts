import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { FormatError } from './errors.js';
import { loadNativeAddon, nativeAddonError } from './native-addon.js';

export type FileAccessMode = 'mmap' | 'pread';

export interface FileBytes {
  readonly path: string;
  readonly size: number;
  readonly mode: FileAccessMode;
  /** Bytes [offset, offset+length): a zero-copy view when mapped, a fresh Buffer otherwise. */
  read(offset: number, length: number): Buffer;
  /** The whole mapping in mmap mode, undefined in pread mode. */
  readonly mapping: Buffer | undefined;
  /**
   * Mapped: drops the file's pages from this process's page tables, so they stop counting in its
   * RSS (they stay in the page cache, and the next read maps them again). Nothing to do unmapped.
   */
  releasePages(): void;
  /** Idempotent. A mapping is released by the garbage collector once nothing can see it. */
  close(): void;
}

export interface OpenFileOptions {
  mode?: 'auto' | FileAccessMode;
  advice?: 'random' | 'sequential' | 'normal';
}

export function nativeMmapAvailable(): boolean {
  return loadNativeAddon() !== null;
}

export function nativeMmapLoadError(): string | undefined {
  return nativeAddonError();
}

/** The mode openFileBytes would use with these options. */
export function chooseMode(options: OpenFileOptions): FileAccessMode {
  let mode = options.mode ?? 'auto';
  if (mode === 'auto') {
    const env = process.env.OMM_READER;
    if (env === 'mmap' || env === 'pread') mode = env;
  }
  if (mode === 'auto') return nativeMmapAvailable() ? 'mmap' : 'pread';
  return mode;
}

function outside(path: string, size: number, offset: number, length: number): FormatError {
  return new FormatError('E_FORMAT_TRUNCATED', `read of ${length} bytes at ${offset} is outside the file of ${size} bytes`, path);
}

function checkRange(path: string, size: number, offset: number, length: number): void {
  if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + length > size) {
    throw outside(path, size, offset, length);
  }
}

/**
 * Opens a file for random reads: mapped when the native addon loads, positioned reads otherwise.
 * `held`: a descriptor of the file already open (HeldFile), which this takes over.
 */
export function openFileBytes(path: string, options: OpenFileOptions = {}, held?: number): FileBytes {
  const mode = chooseMode(options);
  if (held !== undefined && mode === 'mmap') {
    // Map the descriptor's own file (the path may have been removed since): /proc names it.
    try {
      return openFileBytes(PROC_FD ? `${PROC_FD}/${held}` : path, options);
    } finally {
      closeSync(held);
    }
  }
  if (mode === 'mmap') {
    const native = loadNativeAddon();
    if (!native) throw new FormatError('E_IO', `memory mapping is unavailable: ${nativeAddonError()}`, path);
    let mapping: Buffer | undefined;
    try {
      mapping = native.map(path);
    } catch (cause) {
      throw new FormatError('E_IO', `cannot map: ${(cause as Error).message}`, path, { cause });
    }
    if (options.advice && mapping.length > 0) native.advise(mapping, options.advice);
    const size = mapping.length;
    return {
      path,
      size,
      mode,
      get mapping() {
        return mapping;
      },
      releasePages() {
        if (mapping && mapping.length > 0) native.advise(mapping, 'dontneed');
      },
      read(offset, length) {
        if (!mapping) throw new FormatError('E_IO', 'read after close', path);
        checkRange(path, size, offset, length);
        return mapping.subarray(offset, offset + length);
      },
      close() {
        mapping = undefined;
      },
    };
  }
  let fd: number | undefined = held ?? openOrThrow(path);
  const size = fstatSync(fd).size;
  return {
    path,
    size,
    mode,
    mapping: undefined,
    releasePages() {},
    read(offset, length) {
      if (fd === undefined) throw new FormatError('E_IO', 'read after close', path);
      checkRange(path, size, offset, length);
      const out = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, out, done, length - done, offset + done);
        if (n <= 0) throw outside(path, size, offset, length);
        done += n;
      }
      return out;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** Where Linux lists a process's open descriptors as paths that reopen the same files. */
const PROC_FD = existsSync('/proc/self/fd') ? '/proc/self/fd' : null;

function openOrThrow(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (cause) {
    throw new FormatError('E_IO', `cannot open: ${(cause as Error).message}`, path, { cause });
  }
}

/**
 * A file opened and not yet read: its descriptor tells its size and holds the file, so a snapshot
 * directory removed meanwhile (an older snapshot past --keep) does not take it away. `open` maps
 * or reads it when it is first needed; the descriptor passes to what it returns.
 */
export class HeldFile {
  private fd: number | undefined;
  readonly size: number;

  constructor(readonly path: string) {
    this.fd = openOrThrow(path);
    this.size = fstatSync(this.fd).size;
  }

  open(options: OpenFileOptions = {}): FileBytes {
    const fd = this.fd;
    if (fd === undefined) throw new FormatError('E_IO', 'opened twice or after close', this.path);
    this.fd = undefined;
    return openFileBytes(this.path, options, fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
