/**
 * Which MusicBrainz entity a parsed JSON value is, and handing it to the sink. A value is a
 * release, a recording or an artist (a dump line or a WS/2 lookup), or a WS/2 browse or search
 * response holding a list of them (`{"releases": [...]}`), whose items are each a unit of their
 * own. The kind is read from the value's keys; a dump file's name (`mbdump/release`) settles it
 * when the keys do not, and a value whose keys name another kind than its file is an error.
 */
import { ImportError } from '../import-error.js';
import { unitDigest } from '../stage/source-unit.js';
import type { CatalogSink, ImportReport, SourceUnit } from '../stage/staged.js';
import { isObject, type Json, type ReadContext } from './fields.js';
import { mapArtist } from './map-artist.js';
import { mapRecording } from './map-recording.js';
import { mapRelease } from './map-release.js';

export const ENTITY_KINDS = ['release', 'recording', 'artist'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** The list key of a WS/2 browse or search response of each kind. */
const LIST_KEYS: Record<string, EntityKind> = { releases: 'release', recordings: 'recording', artists: 'artist' };

/** The kind `value`'s keys show (every WS/2 lookup and dump line has at least one of these), or undefined. */
export function detectKind(value: Json): EntityKind | undefined {
  if ('media' in value || 'barcode' in value || 'release-events' in value || 'label-info' in value || 'cover-art-archive' in value) return 'release';
  if ('video' in value || 'isrcs' in value || ('length' in value && 'title' in value)) return 'recording';
  if ('gender' in value || 'begin-area' in value || 'end-area' in value) return 'artist';
  // Labels have IPIs and ISNIs too, and a label code; releases and recordings have a title.
  if (('ipis' in value || 'isnis' in value) && !('label-code' in value) && !('title' in value)) return 'artist';
  return undefined;
}

/** One parsed unit of input: a JSON line or a whole document. */
export interface ParsedUnit {
  readonly value: unknown;
  /** The file as errors name it (`release.tar.xz:mbdump/release` inside an archive). */
  readonly file: string;
  /** 1-based line of a JSON-lines unit; absent for a single document. */
  readonly line?: number;
  readonly where: string;
  /** unitDigest of the unit's text. */
  readonly digest: string;
}

/** Hands the entities of `unit` to `sink`; `hint` is the kind the file's name gives, if any. */
export function deliverUnit(unit: ParsedUnit, hint: EntityKind | undefined, sink: CatalogSink, report: ImportReport): void {
  const { value } = unit;
  const place = { file: unit.file, line: unit.line };
  if (!isObject(value)) {
    throw new ImportError(
      'E_IMPORT_FORMAT',
      place,
      `${Array.isArray(value) ? 'a JSON array' : `a JSON ${value === null ? 'null' : typeof value}`}, not a MusicBrainz entity`,
    );
  }
  const listKey = value.id === undefined ? Object.keys(LIST_KEYS).find((key) => Array.isArray(value[key])) : undefined;
  if (listKey) {
    // A browse or search response. Its items carry no more time than a dump line: a search
    // response's `created` is not used, or its partial releases (no media) would replace the full
    // ones of a dump; like dump lines, which version of an id wins is decided by digest.
    const created = '';
    const items = value[listKey] as unknown[];
    items.forEach((item, i) => {
      const path = `${listKey}[${i}]`;
      if (!isObject(item)) throw new ImportError('E_IMPORT_FORMAT', { ...place, path }, `not a MusicBrainz ${LIST_KEYS[listKey]}`);
      const source: SourceUnit = { where: `${unit.where}:${path}`, created, digest: unitDigest(JSON.stringify(item)) };
      deliverEntity(LIST_KEYS[listKey], item, source, { ...place, where: source.where, report, prefix: `${path}.` }, sink);
    });
    return;
  }
  const shown = detectKind(value);
  if (hint && shown && shown !== hint) {
    throw new ImportError('E_IMPORT_FORMAT', place, `a MusicBrainz ${shown} in a ${hint} file`);
  }
  const kind = shown ?? hint;
  if (!kind) {
    throw new ImportError('E_IMPORT_FORMAT', place, 'not a MusicBrainz release, recording or artist, nor a WS/2 list of them');
  }
  const source: SourceUnit = { where: unit.where, created: '', digest: unit.digest };
  deliverEntity(kind, value, source, { ...place, where: unit.where, report, prefix: '' }, sink);
}

function deliverEntity(kind: EntityKind, value: Json, source: SourceUnit, ctx: ReadContext, sink: CatalogSink): void {
  switch (kind) {
    case 'release': {
      const album = mapRelease(ctx, value);
      if (album) sink.release(source, album);
      return;
    }
    case 'recording': {
      const song = mapRecording(ctx, value, '');
      if (song) sink.song(source, song);
      return;
    }
    case 'artist': {
      const artist = mapArtist(ctx, value);
      if (artist) sink.artist(source, artist);
      return;
    }
  }
}
