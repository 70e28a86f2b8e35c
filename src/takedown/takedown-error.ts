/** Why a takedown was refused; nothing was published. */
export type TakedownErrorCode =
  /** A key that is no ISRC, UPC or catalog id (names the flag or the file and line). */
  | 'E_TAKEDOWN_KEY'
  /** A list file that cannot be read. */
  | 'E_TAKEDOWN_IO'
  /** `--strict`, and some key names nothing in the snapshot. */
  | 'E_TAKEDOWN_UNKNOWN'
  /** No key given. */
  | 'E_TAKEDOWN_EMPTY'
  /** The snapshot in service is made of segments (docs/segments.md): not yet taken down in place. */
  | 'E_TAKEDOWN_SEGMENTS';

export class TakedownError extends Error {
  constructor(
    readonly code: TakedownErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TakedownError';
  }
}
