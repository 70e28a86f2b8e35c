import type { ExternalSorter } from '../../sort/external-sort.js';
import { KEY_TAIL, StageKind, VERSION_BYTES } from './stage-keys.js';

/*
 * The stage's sorted records read back id by id, keeping only each id's latest version: how a
 * later delivery's word on an album replaces an earlier one whatever the order of the inputs.
 */

/** One record of the latest version of an id, copied out of the sorter's buffer. */
export interface LatestRecord {
  readonly kind: StageKind;
  readonly sequence: number;
  readonly value: Uint8Array;
}

/**
 * Walks a sorter's records id by id: `onId` gets the records of the id's latest version (in kind
 * and sequence order), how many versions there were, and whether a marker (Keep or Ref) names the
 * id. Reads records where they lie (ExternalSorter.drain), compares ids and versions as bytes,
 * decodes an id once and copies only the latest version's values.
 */
export function forEachLatest(sorter: ExternalSorter, onId: (id: string, latest: LatestRecord[], versions: number, marked: boolean) => void): void {
  let id: string | null = null;
  let idBytes = Buffer.alloc(256);
  let idLength = -1;
  const version = Buffer.alloc(VERSION_BYTES);
  let versions = 0;
  let marked = false;
  let latest: LatestRecord[] = [];
  const flush = () => {
    if (id !== null && latest.length > 0) onId(id, latest, versions, marked);
  };
  sorter.drain((buffer, keyStart, keyEnd, valueEnd) => {
    const idEnd = keyEnd - KEY_TAIL;
    const length = idEnd - keyStart;
    if (length !== idLength || buffer.compare(idBytes, 0, idLength, keyStart, idEnd) !== 0) {
      flush();
      if (length > idBytes.length) idBytes = Buffer.alloc(length * 2);
      buffer.copy(idBytes, 0, keyStart, idEnd);
      idLength = length;
      id = buffer.toString('utf8', keyStart, idEnd);
      versions = 0;
      marked = false;
      latest = [];
    }
    const kind = buffer[keyEnd - 5] as StageKind;
    if (kind === StageKind.Keep || kind === StageKind.Ref) {
      marked = true;
      return;
    }
    const versionStart = idEnd + 1;
    if (versions === 0 || buffer.compare(version, 0, VERSION_BYTES, versionStart, versionStart + VERSION_BYTES) !== 0) {
      buffer.copy(version, 0, versionStart, versionStart + VERSION_BYTES);
      versions++;
    }
    if (versions === 1) latest.push({ kind, sequence: buffer.readUInt32BE(keyEnd - 4), value: Uint8Array.prototype.slice.call(buffer, keyEnd, valueEnd) });
  });
  flush();
}
