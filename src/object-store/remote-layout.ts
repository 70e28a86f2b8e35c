import { createHash } from 'node:crypto';
import { StoreError } from './store-error.js';

/**
 * What a publish writes under a store's prefix (docs/format.md, "Snapshots in an object store"):
 *
 *   chunks/<sha256>           a content-defined chunk of a snapshot file, named by its digest:
 *                             immutable, shared by every build holding those bytes
 *   builds/<build id>.json    a build descriptor: each file of the snapshot as its chunks
 *   current                   the pointer: which build is in service, and the descriptor's digest
 *
 * Chunks are written first, the descriptor after them, the pointer last and conditionally, so the
 * pointer only ever names a build whose every object is in the store.
 */
export const CHUNKS = 'chunks/';
export const BUILDS = 'builds/';
export const POINTER = 'current';

export const chunkKey = (sha256: string): string => `${CHUNKS}${sha256}`;
export const descriptorKey = (buildId: string): string => `${BUILDS}${buildId}.json`;

/** One file of a build: its size and digest, and its chunks in order as [sha256, length]. */
export interface RemoteFile {
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
  readonly chunks: readonly (readonly [string, number])[];
}

export interface BuildDescriptor {
  readonly format: 'omm-build';
  readonly version: 1;
  readonly buildId: string;
  readonly files: readonly RemoteFile[];
}

export interface Pointer {
  readonly format: 'omm-current';
  readonly version: 1;
  readonly buildId: string;
  /** SHA-256 of the build descriptor's bytes: a replica refuses a descriptor that differs. */
  readonly descriptorSha256: string;
  /** When this pointer was written (ISO 8601); informational. */
  readonly publishedAt: string;
  /** The builds it named before, newest first (at most HISTORY_LENGTH): what --keep counts. */
  readonly history: readonly string[];
}

export const HISTORY_LENGTH = 32;

const HEX64 = /^[0-9a-f]{64}$/;
const BUILD_ID = /^[0-9a-z]{1,64}$/;
/** A plain file name: never a path that could leave the directory it is written into. */
const FILE_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,128}$/;

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes to store: stable JSON, one line. */
export function encodeJson(value: BuildDescriptor | Pointer): Buffer {
  return Buffer.from(`${JSON.stringify(value)}\n`);
}

function parseJson(bytes: Uint8Array, key: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new StoreError('E_STORE_FORMAT', 'not a JSON object', key);
}

function fail(key: string, field: string, why: string): never {
  throw new StoreError('E_STORE_FORMAT', `${field} ${why}`, key);
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

export function parsePointer(bytes: Uint8Array, key = POINTER): Pointer {
  const p = parseJson(bytes, key);
  if (p.format !== 'omm-current' || p.version !== 1) fail(key, 'format', 'is not omm-current version 1');
  if (typeof p.buildId !== 'string' || !BUILD_ID.test(p.buildId)) fail(key, 'buildId', 'is not a build id');
  if (typeof p.descriptorSha256 !== 'string' || !HEX64.test(p.descriptorSha256)) fail(key, 'descriptorSha256', 'is not a SHA-256');
  const history = Array.isArray(p.history) ? p.history : fail(key, 'history', 'is not a list');
  for (const id of history) if (typeof id !== 'string' || !BUILD_ID.test(id)) fail(key, 'history', `holds ${JSON.stringify(id)}, not a build id`);
  return {
    format: 'omm-current',
    version: 1,
    buildId: p.buildId,
    descriptorSha256: p.descriptorSha256,
    publishedAt: typeof p.publishedAt === 'string' ? p.publishedAt : '',
    history: history as string[],
  };
}

function parseFile(f: unknown, key: string, at: string): RemoteFile {
  const file = (f ?? {}) as Record<string, unknown>;
  if (typeof file.name !== 'string' || !FILE_NAME.test(file.name)) fail(key, `${at}.name`, 'is not a plain file name');
  if (!isCount(file.size)) fail(key, `${at}.size`, 'is not a size');
  if (typeof file.sha256 !== 'string' || !HEX64.test(file.sha256)) fail(key, `${at}.sha256`, 'is not a SHA-256');
  if (!Array.isArray(file.chunks)) fail(key, `${at}.chunks`, 'is not a list');
  let total = 0;
  for (const [j, c] of file.chunks.entries()) {
    if (!Array.isArray(c) || typeof c[0] !== 'string' || !HEX64.test(c[0]) || !isCount(c[1]) || c[1] === 0)
      fail(key, `${at}.chunks[${j}]`, 'is not [sha256, length]');
    total += c[1];
  }
  if (total !== file.size) fail(key, `${at}.chunks`, `add up to ${total} bytes, not the file's ${file.size}`);
  return { name: file.name, size: file.size, sha256: file.sha256, chunks: file.chunks as [string, number][] };
}

export function parseDescriptor(bytes: Uint8Array, key: string): BuildDescriptor {
  const d = parseJson(bytes, key);
  if (d.format !== 'omm-build' || d.version !== 1) fail(key, 'format', 'is not omm-build version 1');
  if (typeof d.buildId !== 'string' || !BUILD_ID.test(d.buildId)) fail(key, 'buildId', 'is not a build id');
  if (!Array.isArray(d.files) || d.files.length === 0) fail(key, 'files', 'is not a list of files');
  const files = d.files.map((f, i) => parseFile(f, key, `files[${i}]`));
  const names = new Set(files.map((f) => f.name));
  if (names.size !== files.length) fail(key, 'files', 'names a file twice');
  return { format: 'omm-build', version: 1, buildId: d.buildId, files };
}

/** A file's chunks with where each lies in it. */
export function* chunkSpans(file: RemoteFile): Generator<{ readonly sha256: string; readonly offset: number; readonly length: number }> {
  let offset = 0;
  for (const [sha256, length] of file.chunks) {
    yield { sha256, offset, length };
    offset += length;
  }
}

/** Every chunk digest a build uses. */
export function chunksOf(descriptor: BuildDescriptor): Set<string> {
  const all = new Set<string>();
  for (const file of descriptor.files) for (const [sha] of file.chunks) all.add(sha);
  return all;
}
