import { StoreError } from './store-error.js';

/** Where builds are published: a bucket and a key prefix inside it (empty, or ending in `/`). */
export interface StoreLocation {
  readonly bucket: string;
  readonly prefix: string;
}

/** True when a command-line argument names an object store rather than a directory. */
export function isStoreUrl(text: string): boolean {
  return /^s3:\/\//i.test(text);
}

/**
 * `s3://bucket/some/prefix/` -> { bucket, prefix: 'some/prefix/' }. The prefix always ends in `/`
 * (or is empty), so `s3://b/p` and `s3://b/p/` name the same place.
 */
export function parseStoreUrl(text: string): StoreLocation {
  const match = /^s3:\/\/([^/?#]+)(\/[^?#]*)?$/i.exec(text);
  if (!match) throw new StoreError('E_STORE_URL', `${JSON.stringify(text)} is not a store location like s3://bucket/prefix/`);
  const bucket = match[1];
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new StoreError('E_STORE_URL', `bucket ${JSON.stringify(bucket)} is not a valid S3 bucket name (3-63 of a-z 0-9 . -)`);
  const path = (match[2] ?? '/').replace(/^\/+/, '').replace(/\/+/g, '/');
  const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
  return { bucket, prefix };
}

export function storeUrl(location: StoreLocation): string {
  return `s3://${location.bucket}/${location.prefix}`;
}
