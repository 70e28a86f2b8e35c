/**
 * Which files the MusicBrainz reader reads, and how: inputs are files or directories (walked
 * recursively in sorted order by ../input-files.ts), each file plain, `.gz`, `.xz`, or a tar archive
 * (`.tar`, `.tar.gz`/`.tgz`, `.tar.xz`/`.txz`, as the JSON dumps' `release.tar.xz` is).
 */
import { basename } from 'node:path';
import { inputFiles } from '../input-files.js';
import type { ImportReport } from '../stage/staged.js';
import { ENTITY_KINDS, type EntityKind } from './entity.js';

export type Compression = 'none' | 'gzip' | 'xz';

export interface InputFile {
  readonly path: string;
  readonly compression: Compression;
  /** A tar archive: its members under `mbdump/` are read (tarMemberHint). */
  readonly tar: boolean;
  /** The entity kind the name gives (`release`, `release.jsonl.gz`, `mbdump/recording`), if any. */
  readonly hint?: EntityKind;
}

/** Entity dumps of MusicBrainz that this reader does not import (JSON dumps and WS/2 names). */
const OTHER_ENTITIES = new Set(['area', 'event', 'instrument', 'label', 'place', 'release-group', 'series', 'work', 'genre', 'url', 'annotation']);
/** The small files beside a dump's entities: never data. */
const DUMP_SIDE_FILES = new Set(['TIMESTAMP', 'COPYING', 'README', 'SCHEMA_SEQUENCE', 'JSON_DUMPS_SCHEMA_NUMBER', 'REPLICATION_SEQUENCE', 'LICENSE']);

interface NameParts {
  readonly compression: Compression;
  readonly tar: boolean;
  /** The name without its compression, tar and JSON extensions, lower-cased. */
  readonly stem: string;
  readonly json: boolean;
}

function nameParts(path: string): NameParts {
  let name = basename(path).toLowerCase();
  const cut = (ext: string): boolean => (name.endsWith(ext) && name.length > ext.length ? ((name = name.slice(0, -ext.length)), true) : false);
  let compression: Compression = 'none';
  let tar = false;
  if (cut('.tgz')) [compression, tar] = ['gzip', true];
  else if (cut('.txz')) [compression, tar] = ['xz', true];
  else {
    if (cut('.gz')) compression = 'gzip';
    else if (cut('.xz')) compression = 'xz';
    tar = cut('.tar');
  }
  const json = !tar && (cut('.jsonl') || cut('.ndjson') || cut('.json'));
  return { compression, tar, stem: name, json };
}

const kindOf = (stem: string): EntityKind | undefined => ENTITY_KINDS.find((kind) => kind === stem);

/**
 * Whether a tar member is read, and as which kind: members `mbdump/<entity>` of a kind this
 * reader imports are; other entities' members are left out with a warning, everything else
 * (TIMESTAMP, COPYING, README, directories) silently.
 */
export function tarMemberHint(member: string, where: string, report: ImportReport): EntityKind | undefined {
  const m = /(?:^|\/)mbdump\/([^/]+)$/.exec(member);
  if (!m) return undefined;
  const kind = kindOf(m[1]);
  if (!kind && OTHER_ENTITIES.has(m[1])) report.warn(where, `${m[1]} entities are not imported; member left out`);
  return kind;
}

/**
 * The files of `inputs` to read, in order (inputFiles: each input in turn, a directory's files
 * recursively, each directory's entries sorted). A file given by name is read whatever its name, unless it names an entity kind
 * this reader does not import; in a directory, only JSON (`.json`, `.jsonl`, `.ndjson`),
 * entity-named and tar files are, and other files are left out with a warning (the dump's own
 * side files and hidden files silently).
 */
export async function listInputs(inputs: readonly string[], report: ImportReport): Promise<InputFile[]> {
  const files: InputFile[] = [];
  for await (const input of inputFiles(inputs)) {
    const file = choose(input.path, input.named, report);
    if (file) files.push(file);
  }
  return files;
}

function choose(path: string, named: boolean, report: ImportReport): InputFile | undefined {
  const base = basename(path);
  const parts = nameParts(path);
  const file: InputFile = { path, compression: parts.compression, tar: parts.tar, hint: parts.tar ? undefined : kindOf(parts.stem) };
  if (OTHER_ENTITIES.has(parts.stem) && !parts.tar) {
    report.warn(path, `${parts.stem} entities are not imported; file left out`);
    return undefined;
  }
  if (named || parts.tar || parts.json || file.hint) return file;
  if (!base.startsWith('.') && !DUMP_SIDE_FILES.has(base)) report.warn(path, 'not a JSON, MusicBrainz dump or tar file; left out');
  return undefined;
}
