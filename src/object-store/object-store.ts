import type { StoreLocation } from './store-url.js';

/** An object read whole, with the entity tag the store gave it. */
export interface StoredObject {
  readonly body: Buffer;
  readonly etag: string;
}

export interface ObjectInfo {
  /** Relative to the store's prefix. */
  readonly key: string;
  readonly size: number;
  readonly lastModified: Date;
  /** The store's entity tag, unquoted (for an object uploaded in one PUT, usually its MD5). */
  readonly etag: string;
}

export interface GetOptions {
  /** Answer `'not-modified'` when the object still has this entity tag. */
  readonly ifNoneMatch?: string;
}

export interface PutOptions {
  /** Write only if the object still has this entity tag (else E_STORE_PRECONDITION). */
  readonly ifMatch?: string;
  /** Write only if no object has this key (else E_STORE_PRECONDITION). */
  readonly ifAbsent?: boolean;
}

/**
 * The few object-store operations publishing and replicas need, every key relative to the
 * location's prefix. Failures are StoreErrors with stable codes; a missing object is `null`.
 */
export interface ObjectStore {
  readonly location: StoreLocation;
  get(key: string, options?: GetOptions): Promise<StoredObject | 'not-modified' | null>;
  /** Returns the new object's entity tag. */
  put(key: string, body: Uint8Array, options?: PutOptions): Promise<string>;
  list(under: string): AsyncIterable<ObjectInfo>;
  delete(keys: readonly string[]): Promise<void>;
}
