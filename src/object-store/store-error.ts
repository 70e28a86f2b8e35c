/**
 * Errors of the object store and of what is published in it. Every error carries a stable `code`
 * (docs/errors.md); callers match on it.
 */
export type StoreErrorCode =
  | 'E_STORE_URL' // a store location that is not s3://bucket/prefix/
  | 'E_STORE_CONFIG' // the SDK found no region, credentials or endpoint to use
  | 'E_STORE_UNREACHABLE' // the store did not answer (network, DNS, 5xx after the SDK's retries)
  | 'E_STORE_DENIED' // the store refused the credentials or the request (403)
  | 'E_STORE_MISSING' // an object a build needs is not in the store
  | 'E_STORE_PRECONDITION' // a conditional write lost: the object changed since it was read
  | 'E_STORE_CORRUPT' // an object's bytes do not match the digest it is published under
  | 'E_STORE_FORMAT'; // a pointer or build descriptor that does not parse or breaks its rules

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** The object's key, or the location, the error is about. */
  readonly key: string | undefined;

  constructor(code: StoreErrorCode, message: string, key?: string, options?: { cause?: unknown }) {
    super(key ? `${message} (${key})` : message, options);
    this.name = 'StoreError';
    this.code = code;
    this.key = key;
  }
}

export function isStoreError(err: unknown, code?: StoreErrorCode): err is StoreError {
  return err instanceof StoreError && (code === undefined || err.code === code);
}
