/**
 * Errors of the streamed importers, each naming where: the file, and when known the line,
 * column and element or field path. The CLI prints the message and exits 1; nothing is written.
 */
export type ImportErrorCode =
  | 'E_IMPORT_SYNTAX' // malformed XML or JSON (truncated, bad token)
  | 'E_IMPORT_FORMAT' // not a format the importer reads: unknown ERN version, wrong namespace, other message type, not a MusicBrainz entity
  | 'E_IMPORT_VALUE' // a value that cannot be read: a bad duration, date or number
  | 'E_IMPORT_SKIPPED' // under --strict: an item that would have been skipped (no ISRC, no release id)
  | 'E_IMPORT_IO' // an input cannot be read, or the output cannot be written
  | 'E_IMPORT_STATE'; // --into: the raw catalog has no import state, or changed since the import that wrote it

export interface ImportErrorPlace {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** Element or field path: `NewReleaseMessage/ResourceList/SoundRecording[3]/Duration`, `media[0].tracks[2].length`. */
  readonly path?: string;
}

export class ImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    readonly place: ImportErrorPlace,
    readonly detail: string,
  ) {
    super(`${formatPlace(place)}: ${detail} [${code}]`);
    this.name = 'ImportError';
  }
}

export function formatPlace(place: ImportErrorPlace): string {
  let at = place.file;
  if (place.line !== undefined) at += `:${place.line}`;
  if (place.line !== undefined && place.column !== undefined) at += `:${place.column}`;
  return place.path ? `${at}: ${place.path}` : at;
}
