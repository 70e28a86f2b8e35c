import type { SourceUnit } from './staged.js';

/**
 * Keys of the catalog stage's sorters. A key is
 *
 *     id (UTF-8) · 0x00 · version, inverted (60 bytes) · kind (1 byte) · sequence (u32, big-endian)
 *
 * so a sorter's records come grouped by id (ids never hold 0x00), the latest version of an id
 * first (the version is the unit's creation time, 28 ASCII bytes, then its 32-byte digest, every
 * byte inverted so that later sorts first), and within a version by kind and sequence. Markers
 * (a reference to an id, or "keep it on its own") carry the all-zero version: they sort after
 * every real version of their id.
 */
export const VERSION_BYTES = 60;
const CREATED_BYTES = 28;

export const enum StageKind {
  /** An entity's row; for albums an empty value is a takedown. */
  Row = 0,
  /** A credited artist (value: artist id); sequence = credit position. */
  Credit = 1,
  /** An album's track (value: [song id, disc, track]); sequence = track index. */
  Track = 2,
  /** The entity stands on its own (a dump line of its own type): kept unreferenced. */
  Keep = 8,
  /** The entity is referenced by something that survived. */
  Ref = 9,
}

/** A unit's version, inverted, ready to copy into keys. */
export function invertedVersion(unit: SourceUnit): Uint8Array {
  const out = new Uint8Array(VERSION_BYTES);
  if (unit.created.length > CREATED_BYTES) throw new Error(`${unit.where}: creation time ${JSON.stringify(unit.created)} is not normalised`);
  for (let i = 0; i < unit.created.length; i++) out[i] = unit.created.charCodeAt(i) & 0xff;
  if (!/^[0-9a-f]{64}$/.test(unit.digest)) throw new Error(`${unit.where}: digest ${JSON.stringify(unit.digest)} is not hex SHA-256`);
  for (let i = 0; i < 32; i++) out[CREATED_BYTES + i] = parseInt(unit.digest.slice(i * 2, i * 2 + 2), 16);
  for (let i = 0; i < VERSION_BYTES; i++) out[i] = 255 - out[i];
  return out;
}

/** The version of markers: sorts after every real version. */
export const MARKER_VERSION: Uint8Array = new Uint8Array(VERSION_BYTES).fill(255);

const encoder = new TextEncoder();

export function stageKey(id: string, version: Uint8Array, kind: StageKind, sequence: number): Uint8Array {
  const idBytes = encoder.encode(id);
  const key = new Uint8Array(idBytes.length + 1 + VERSION_BYTES + 5);
  key.set(idBytes, 0);
  let at = idBytes.length + 1;
  key.set(version, at);
  at += VERSION_BYTES;
  key[at] = kind;
  key[at + 1] = sequence >>> 24;
  key[at + 2] = (sequence >>> 16) & 0xff;
  key[at + 3] = (sequence >>> 8) & 0xff;
  key[at + 4] = sequence & 0xff;
  return key;
}

/** The parts of a key read back: the id's bytes end at `idEnd`; the version follows the 0x00. */
export interface KeyParts {
  readonly id: string;
  /** The version's bytes as a string of hex pairs: compared for equality only. */
  readonly version: string;
  readonly kind: StageKind;
  readonly sequence: number;
}

const decoder = new TextDecoder();

export function readKey(key: Uint8Array): KeyParts {
  const idEnd = key.length - VERSION_BYTES - 6;
  const versionStart = idEnd + 1;
  const kindAt = versionStart + VERSION_BYTES;
  return {
    id: decoder.decode(key.subarray(0, idEnd)),
    version: Buffer.from(key.buffer, key.byteOffset + versionStart, VERSION_BYTES).toString('latin1'),
    kind: key[kindAt] as StageKind,
    sequence: ((key[kindAt + 1] << 24) | (key[kindAt + 2] << 16) | (key[kindAt + 3] << 8) | key[kindAt + 4]) >>> 0,
  };
}
