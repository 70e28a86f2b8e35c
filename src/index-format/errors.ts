/**
 * Errors of the on-disk format. Every error carries a stable `code`; callers match on it.
 * The full table of codes lives in docs/errors.md.
 */
export type FormatErrorCode =
  | 'E_FORMAT_MAGIC' // the file does not start with the snapshot magic
  | 'E_FORMAT_VERSION' // the file's major version is not one this reader knows
  | 'E_FORMAT_HEADER' // the header is inconsistent (bad kind, sizes, directory)
  | 'E_FORMAT_TRUNCATED' // the file is shorter than its header says
  | 'E_CHECKSUM' // a checksum does not match the bytes
  | 'E_FORMAT_RECORD' // a record could not be decoded although its page checksum matched
  | 'E_SNAPSHOT_MISSING' // no snapshot (or no current pointer) where one was expected
  | 'E_SNAPSHOT_MISMATCH' // a shard does not match what the manifest says (size, kind, build)
  | 'E_IO'; // the operating system refused a read or open

export class FormatError extends Error {
  readonly code: FormatErrorCode;
  readonly file: string | undefined;

  constructor(code: FormatErrorCode, message: string, file?: string, options?: { cause?: unknown }) {
    super(file ? `${message} (${file})` : message, options);
    this.name = 'FormatError';
    this.code = code;
    this.file = file;
  }
}

export function isFormatError(err: unknown, code?: FormatErrorCode): err is FormatError {
  return err instanceof FormatError && (code === undefined || err.code === code);
}
