import type { SourceUnit } from './staged.js';

/**
 * Keys of the catalog stage's sorters. A key is
 *
 *     id (UTF-8) · 0x00 · version, inverted (60 bytes) · kind (1 byte) · sequence (u32, big-endian)
 *
 * so a sorter's records come grouped by id (ids never hold 0x00), the latest version of an id
 * first (the version is the unit's creation time, 28 ASCII bytes, then its 32-byte digest, every
 * byte inverted so that later sorts first), and within a version by kind and sequence. Markers
 * (a reference to an id, or "keep it on its own") carry the all-0xff version: they sort after
 * every real version of their id. The previous import's word on an id (stage-state.ts) carries
 * the all-zero version: it sorts before every real version.
 */
export const VERSION_BYTES = 60;
const CREATED_BYTES = 28;
/** Bytes after the id: the 0x00, the version, the kind and the sequence. */
export const KEY_TAIL = 1 + VERSION_BYTES + 1 + 4;

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
  /** Something that referred to the entity no longer does (an album updated or taken down). */
  Unref = 10,
  /** How many surviving things referred to the entity after the previous import (value: u32, big-endian). */
  RefCount = 11,
  /** The previous import's word (value: its latest version, inverted, then 1 if it was in the raw catalog, else 0). */
  Previous = 12,
}

/** A unit's version, inverted, ready to copy into keys. */
export function invertedVersion(unit: SourceUnit): Buffer {
  const out = Buffer.alloc(VERSION_BYTES);
  if (unit.created.length > CREATED_BYTES || !/^[\x20-\x7e]*$/.test(unit.created))
    throw new Error(`${unit.where}: creation time ${JSON.stringify(unit.created)} is not normalised`);
  if (!/^[0-9a-f]{64}$/.test(unit.digest)) throw new Error(`${unit.where}: digest ${JSON.stringify(unit.digest)} is not hex SHA-256`);
  out.write(unit.created, 0, 'latin1');
  out.write(unit.digest, CREATED_BYTES, 'hex');
  for (let i = 0; i < VERSION_BYTES; i++) out[i] = 255 - out[i];
  return out;
}

/** The version of markers: sorts after every real version. */
export const MARKER_VERSION: Buffer = Buffer.alloc(VERSION_BYTES, 255);
/** The version of the previous import's word on an id: sorts before every real version (whose first byte is an inverted printable character). */
export const PREVIOUS_VERSION: Buffer = Buffer.alloc(VERSION_BYTES, 0);

/**
 * Writes keys and values into scratch buffers that the sorter copies from: no allocation per
 * record. A key or value is valid until the next call of the same method.
 */
export class StageRecordWriter {
  private keyBuffer = Buffer.allocUnsafe(1024);
  private valueBuffer = Buffer.allocUnsafe(16 * 1024);

  key(id: string, version: Uint8Array, kind: StageKind, sequence: number): Buffer {
    if (id.length * 3 + KEY_TAIL > this.keyBuffer.length) this.keyBuffer = Buffer.allocUnsafe(id.length * 3 + KEY_TAIL);
    const buf = this.keyBuffer;
    let at = buf.write(id, 0, 'utf8');
    buf[at++] = 0;
    buf.set(version, at);
    at += VERSION_BYTES;
    buf[at++] = kind;
    buf.writeUInt32BE(sequence >>> 0, at);
    return buf.subarray(0, at + 4);
  }

  /** `text` as UTF-8. */
  value(text: string): Buffer {
    if (text.length * 3 > this.valueBuffer.length) this.valueBuffer = Buffer.allocUnsafe(text.length * 3);
    return this.valueBuffer.subarray(0, this.valueBuffer.write(text, 0, 'utf8'));
  }
}
