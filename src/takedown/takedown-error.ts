/** Why a takedown was refused; nothing was published. */
export type TakedownErrorCode =
  /** A key that is no ISRC, UPC or catalog id (names the flag or the file and line). */
  | 'E_TAKEDOWN_KEY'
  /** A list file that cannot be read. */
  | 'E_TAKEDOWN_IO'
  /** `--strict`, and some key names nothing in the snapshot. */
  | 'E_TAKEDOWN_UNKNOWN'
  /** No key given. */
  | 'E_TAKEDOWN_EMPTY';

export class TakedownError extends Error {
  constructor(
    readonly code: TakedownErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TakedownError';
  }
}
