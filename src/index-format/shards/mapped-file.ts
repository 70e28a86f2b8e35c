import { constants as bufferConstants } from 'node:buffer';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { FormatError } from '../errors.js';
import { loadNativeAddon, nativeAddonError, type NativeAddon } from '../codec/native-addon.js';

export type FileAccessMode = 'mmap' | 'pread';

export interface FileBytes {
  readonly path: string;
  readonly size: number;
  readonly mode: FileAccessMode;
  /** Bytes [offset, offset+length): a zero-copy view when mapped, a fresh Buffer otherwise. */
  read(offset: number, length: number): Buffer;
  /**
   * The whole mapping in mmap mode, undefined in pread mode and for a file mapped in windows
   * (larger than one Buffer can be: see `mappingLimit`).
   */
  readonly mapping: Buffer | undefined;
  /**
   * Mapped: drops the file's pages from this process's page tables, so they stop counting in its
   * RSS (they stay in the page cache, and the next read maps them again). Nothing to do unmapped.
   */
  releasePages(): void;
  /**
   * Mapped: asks the kernel to read [offset, offset+length) ahead (MADV_WILLNEED), for a caller
   * about to read all of it in a file advised MADV_RANDOM. Nothing to do unmapped.
   */
  prefetch(offset: number, length: number): void;
  /**
   * Mapped: whether every page under [offset, offset+length) is in memory now (cold-reads.ts).
   * True unmapped, or when the addon cannot tell.
   */
  resident(offset: number, length: number): boolean;
  /** Idempotent. A mapping is released by the garbage collector once nothing can see it. */
  close(): void;
}

export interface OpenFileOptions {
  mode?: 'auto' | FileAccessMode;
  advice?: 'random' | 'sequential' | 'normal';
  /** Map as one Buffer up to Node's largest, whatever OMM_MAPPING_LIMIT says (scratch files read whole). */
  whole?: boolean;
  /**
   * The file is one of a snapshot larger than the memory the process may use: a lookup of many
   * keys asks for all their pages at once (FileBytes.prefetch) before it reads any (Shard.readsAhead).
   */
  readAhead?: boolean;
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
    const limit = options.whole ? bufferConstants.MAX_LENGTH : mappingLimit();
    const fd = openOrThrow(path);
    const size = fstatSync(fd).size;
    if (size > limit) return openWindowed(native, path, fd, size, limit, options);
    closeSync(fd);
    let mapping: Buffer | undefined;
    try {
      mapping = native.map(path);
    } catch (cause) {
      throw new FormatError('E_IO', `cannot map: ${(cause as Error).message}`, path, { cause });
    }
    if (mapping.length !== size) throw new FormatError('E_IO', `changed size while being opened (${size} to ${mapping.length} bytes)`, path);
    if (options.advice && mapping.length > 0) native.advise(mapping, options.advice);
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
      prefetch(offset, length) {
        if (mapping && length > 0) native.advise(mapping.subarray(offset, offset + length), 'willneed');
      },
      resident(offset, length) {
        return !mapping || !native.resident || length <= 0 || native.resident(mapping, offset, length);
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
    prefetch() {},
    resident: () => true,
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

/**
 * The largest file mapped as one Buffer: Node's largest Buffer (4 GiB in Node 20). A larger file
 * is mapped in windows. OMM_MAPPING_LIMIT (bytes, at least a page) lowers it, so that tests and
 * diagnostics run the windowed reader on small files.
 */
export function mappingLimit(): number {
  const max = bufferConstants.MAX_LENGTH;
  const env = process.env.OMM_MAPPING_LIMIT;
  if (env === undefined || env === '') return max;
  const value = Number(env);
  if (!Number.isSafeInteger(value) || value < WINDOW_PAGE) {
    throw new FormatError('E_IO', `OMM_MAPPING_LIMIT must be a whole number of bytes, at least ${WINDOW_PAGE}; got ${JSON.stringify(env)}`);
  }
  return Math.min(value, max);
}

/** Windows start at multiples of this (a multiple of every page size Linux uses). */
const WINDOW_PAGE = 65536;

/**
 * A file larger than one Buffer, mapped in windows as reads need them: a window starts at a
 * multiple of `limit / 16` (rounded to WINDOW_PAGE) at or below the read and is `limit` bytes
 * long, or longer when one read needs more (up to Node's largest Buffer). So any read of up to
 * 15/16 of the limit (3.75 GiB) is a zero-copy view, and windows are few (16 per limit's worth of
 * file, mapped address space only until touched). The descriptor stays open for the windows to
 * come, so a file removed after it was opened still maps.
 */
function openWindowed(native: NativeAddon, path: string, fd: number | undefined, size: number, limit: number, options: OpenFileOptions): FileBytes {
  const stride = Math.max(WINDOW_PAGE, Math.floor(limit / 16 / WINDOW_PAGE) * WINDOW_PAGE);
  const source = PROC_FD ? `${PROC_FD}/${fd}` : path;
  let windows: Map<number, Buffer> | undefined = new Map();
  const window = (offset: number, length: number): [Buffer, number] => {
    const start = Math.floor(offset / stride) * stride;
    let buffer = windows!.get(start);
    if (!buffer || offset + length > start + buffer.length) {
      const want = Math.min(size - start, Math.max(limit, offset + length - start));
      if (want > bufferConstants.MAX_LENGTH) {
        throw new FormatError('E_IO', `a read of ${length} bytes at ${offset} is longer than one mapping can be (${bufferConstants.MAX_LENGTH} bytes)`, path);
      }
      try {
        buffer = native.map(source, start, want);
      } catch (cause) {
        throw new FormatError('E_IO', `cannot map bytes ${start}..${start + want}: ${(cause as Error).message}`, path, { cause });
      }
      if (buffer.length !== want) {
        throw new FormatError('E_IO', 'the native addon maps whole files only (built before windowed mapping): run npm install', path);
      }
      if (options.advice) native.advise(buffer, options.advice);
      windows!.set(start, buffer);
    }
    return [buffer, offset - start];
  };
  return {
    path,
    size,
    mode: 'mmap',
    mapping: undefined,
    releasePages() {
      for (const buffer of windows?.values() ?? []) if (buffer.length > 0) native.advise(buffer, 'dontneed');
    },
    prefetch(offset, length) {
      if (windows && length > 0) native.advise(this.read(offset, length), 'willneed');
    },
    resident(offset, length) {
      if (!windows || !native.resident || length <= 0) return true;
      const view = this.read(offset, length);
      return native.resident(view, 0, view.length);
    },
    read(offset, length) {
      if (!windows) throw new FormatError('E_IO', 'read after close', path);
      checkRange(path, size, offset, length);
      if (length === 0) return Buffer.alloc(0);
      const [buffer, at] = window(offset, length);
      return buffer.subarray(at, at + length);
    },
    close() {
      windows = undefined;
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/**
 * The whole file as one Buffer, for callers that index it directly (the compile's scratch files):
 * its mapping, or an error when it is read in windows (larger than `mappingLimit`) or not mapped.
 */
export function wholeMapping(file: FileBytes): Buffer {
  if (file.mapping) return file.mapping;
  throw new FormatError(
    'E_IO',
    `a file of ${file.size} bytes cannot be read as one mapping (${file.mode}; at most ${bufferConstants.MAX_LENGTH} bytes)`,
    file.path,
  );
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
  /** The file itself (device, inode, size, modification time): the same for its hard links. */
  readonly identity: string;

  constructor(readonly path: string) {
    this.fd = openOrThrow(path);
    const stat = fstatSync(this.fd);
    this.size = stat.size;
    this.identity = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
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
