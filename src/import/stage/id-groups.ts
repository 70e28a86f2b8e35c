import type { ExternalSorter } from '../../sort/external-sort.js';
import { KEY_TAIL, StageKind, VERSION_BYTES } from './stage-keys.js';

/*
 * The stage's sorted records read back id by id: each id's latest version (a later delivery's
 * word replaces an earlier one whatever the order of the inputs), what the previous import left
 * for it (its version then, whether it was in the raw catalog, and that version's records), and
 * how many surviving things refer to it.
 */

/** One record of an id, copied out of the sorter's buffer. */
export interface StageRecord {
  readonly kind: StageKind;
  readonly sequence: number;
  readonly value: Uint8Array;
}

/** What the previous import left for an id (stage-state.ts). */
export interface PreviousWord {
  /** Its latest version then, inverted as in keys. */
  readonly version: Buffer;
  /** Whether it was in the raw catalog then: a live album, a song or artist written. */
  readonly present: boolean;
  /** The records of that version (an album's credits and tracks, a song's credits). */
  readonly records: StageRecord[];
}

export interface IdGroup {
  readonly id: string;
  /** The latest version, inverted as in keys; its records in kind and sequence order, each once. */
  readonly version: Buffer;
  readonly latest: StageRecord[];
  /** Distinct versions seen, the previous import's included. */
  readonly versions: number;
  /** A Keep marker names the id: it stands on its own. */
  readonly keep: boolean;
  /** Surviving things that refer to it: the previous count, plus this import's Refs, less its Unrefs. */
  readonly refs: number;
  readonly previous: PreviousWord | null;
}

/**
 * Walks a sorter's records id by id (ExternalSorter.drain: read where they lie, ids and versions
 * compared as bytes, an id decoded once) and hands `onId` each id that has a version. A record
 * met twice with the same key (the same unit applied twice, or a delivery already in the previous
 * state) counts once; Ref and Unref markers count every time.
 */
export function forEachId(sorter: ExternalSorter, onId: (group: IdGroup) => void): void {
  const walk = new GroupWalk(onId);
  sorter.drain((buffer, keyStart, keyEnd, valueEnd) => walk.record(buffer, keyStart, keyEnd, valueEnd));
  walk.flush();
}

class GroupWalk {
  private id: string | null = null;
  private idBytes = Buffer.alloc(256);
  private idLength = -1;
  /** The version of the records being read, and the first (latest) one seen. */
  private version = Buffer.alloc(VERSION_BYTES);
  private latestVersion = Buffer.alloc(VERSION_BYTES);
  private versions = 0;
  private keep = false;
  private refs = 0;
  private latest: StageRecord[] = [];
  private previous: { version: Buffer; present: boolean; records: StageRecord[] } | null = null;

  constructor(private readonly onId: (group: IdGroup) => void) {}

  record(buffer: Buffer, keyStart: number, keyEnd: number, valueEnd: number): void {
    const idEnd = keyEnd - KEY_TAIL;
    const length = idEnd - keyStart;
    if (length !== this.idLength || buffer.compare(this.idBytes, 0, this.idLength, keyStart, idEnd) !== 0) this.begin(buffer, keyStart, idEnd);
    const kind = buffer[keyEnd - 5] as StageKind;
    const sequence = buffer.readUInt32BE(keyEnd - 4);
    const versionStart = idEnd + 1;
    const versionEnd = versionStart + VERSION_BYTES;
    switch (kind) {
      case StageKind.Previous:
        this.previous = { version: Buffer.from(buffer.subarray(keyEnd, keyEnd + VERSION_BYTES)), present: buffer[keyEnd + VERSION_BYTES] === 1, records: [] };
        return;
      case StageKind.Keep:
        this.keep = true;
        return;
      case StageKind.Ref:
        this.refs++;
        return;
      case StageKind.Unref:
        this.refs--;
        return;
      case StageKind.RefCount:
        this.refs += buffer.readUInt32BE(keyEnd);
        return;
    }
    if (this.versions === 0 || buffer.compare(this.version, 0, VERSION_BYTES, versionStart, versionEnd) !== 0) {
      buffer.copy(this.version, 0, versionStart, versionEnd);
      if (this.versions === 0) buffer.copy(this.latestVersion, 0, versionStart, versionEnd);
      this.versions++;
    }
    if (this.versions === 1) pushOnce(this.latest, kind, sequence, buffer, keyEnd, valueEnd);
    const previous = this.previous;
    if (previous && buffer.compare(previous.version, 0, VERSION_BYTES, versionStart, versionEnd) === 0)
      pushOnce(previous.records, kind, sequence, buffer, keyEnd, valueEnd);
  }

  flush(): void {
    if (this.id !== null && this.versions > 0) {
      this.onId({
        id: this.id,
        version: Buffer.from(this.latestVersion),
        latest: this.latest,
        versions: this.versions,
        keep: this.keep,
        refs: this.refs,
        previous: this.previous,
      });
    }
  }

  private begin(buffer: Buffer, keyStart: number, idEnd: number): void {
    this.flush();
    const length = idEnd - keyStart;
    if (length > this.idBytes.length) this.idBytes = Buffer.alloc(length * 2);
    buffer.copy(this.idBytes, 0, keyStart, idEnd);
    this.idLength = length;
    this.id = buffer.toString('utf8', keyStart, idEnd);
    this.versions = 0;
    this.keep = false;
    this.refs = 0;
    this.latest = [];
    this.previous = null;
  }
}

/**
 * Adds a record, its value copied out of `buffer[from, to)`, unless the list's last one has its
 * kind and sequence (records of one version arrive in that order).
 */
function pushOnce(list: StageRecord[], kind: StageKind, sequence: number, buffer: Buffer, from: number, to: number): void {
  const last = list[list.length - 1];
  if (last && last.kind === kind && last.sequence === sequence) return;
  list.push({ kind, sequence, value: Uint8Array.prototype.slice.call(buffer, from, to) });
}

/** Records of one kind, in sequence order. */
export const recordsOf = (records: readonly StageRecord[], kind: StageKind): StageRecord[] => records.filter((r) => r.kind === kind);
