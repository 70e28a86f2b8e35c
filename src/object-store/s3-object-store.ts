import { isIP } from 'node:net';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { GetOptions, ObjectInfo, ObjectStore, PutOptions, StoredObject } from './object-store.js';
import { StoreError } from './store-error.js';
import type { StoreLocation } from './store-url.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The S3 client's settings, all from the SDK's own environment (never from flags, which would
 * put secrets in process lists): credentials and region from AWS_* variables or the profile;
 * `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` for a store other than AWS (MinIO, R2, Ceph, GCS
 * interoperability), which then needs no region; path-style addressing when the endpoint's host
 * is an IP address or localhost, or with `AWS_S3_FORCE_PATH_STYLE=1`.
 */
export function s3ClientConfig(env: Env = process.env): S3ClientConfig {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  let host = '';
  if (endpoint) {
    try {
      host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
    } catch {
      throw new StoreError('E_STORE_CONFIG', `the endpoint ${JSON.stringify(endpoint)} (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL) is not a URL`);
    }
  }
  const forced = env.AWS_S3_FORCE_PATH_STYLE === '1' || env.AWS_S3_FORCE_PATH_STYLE === 'true';
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || (endpoint ? 'us-east-1' : undefined);
  return {
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    forcePathStyle: forced || isIP(host) !== 0 || host === 'localhost',
    // A store that does not answer fails in seconds (then the SDK's retries), not minutes.
    requestHandler: { connectionTimeout: 5000, requestTimeout: 120_000 },
  };
}

interface SdkError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

function statusOf(err: unknown): number | undefined {
  return (err as SdkError)?.$metadata?.httpStatusCode;
}

/** An SDK failure as a StoreError with a stable code. */
function storeError(err: unknown, what: string, key: string): StoreError {
  const e = err as SdkError;
  const status = statusOf(err);
  const detail = `${e?.name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}: ${e?.message ?? String(err)}`;
  if (status === 412 || status === 409) return new StoreError('E_STORE_PRECONDITION', `${what} lost a conditional write: ${detail}`, key, { cause: err });
  if (status === 403 || status === 401) return new StoreError('E_STORE_DENIED', `${what} was refused: ${detail}`, key, { cause: err });
  if (/region is missing|credential/i.test(e?.message ?? '') || e?.name === 'CredentialsProviderError')
    return new StoreError('E_STORE_CONFIG', `${what}: ${detail}; set AWS_REGION and credentials (docs/operations.md)`, key, { cause: err });
  return new StoreError('E_STORE_UNREACHABLE', `${what} failed: ${detail}`, key, { cause: err });
}

/** An object store over the S3 API through the AWS SDK v3. */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;

  constructor(
    readonly location: StoreLocation,
    config: S3ClientConfig = s3ClientConfig(),
  ) {
    // The SDK warns on every process under Node 20 that its releases after January 2027 need
    // Node 22; the lockfile pins one that runs on 20 (docs/operations.md).
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client(config);
  }

  private fullKey(key: string): string {
    return this.location.prefix + key;
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | 'not-modified' | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.fullKey(key), IfNoneMatch: options.ifNoneMatch }));
      const bytes = res.Body ? await res.Body.transformToByteArray() : new Uint8Array(0);
      return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), etag: res.ETag ?? '' };
    } catch (err) {
      const status = statusOf(err);
      if (status === 304) return 'not-modified';
      if (status === 404) return null;
      throw storeError(err, 'GET', this.fullKey(key));
    }
  }

  async put(key: string, body: Uint8Array, options: PutOptions = {}): Promise<string> {
    try {
      const res = await this.client.send(
        new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: this.fullKey(key),
          Body: body,
          IfMatch: options.ifMatch,
          IfNoneMatch: options.ifAbsent ? '*' : undefined,
        }),
      );
      return res.ETag ?? '';
    } catch (err) {
      // AWS answers a conditional write on a key that is not there with 404.
      if (statusOf(err) === 404 && options.ifMatch) throw new StoreError('E_STORE_PRECONDITION', 'PUT If-Match: the object is gone', this.fullKey(key));
      throw storeError(err, 'PUT', this.fullKey(key));
    }
  }

  async *list(under: string): AsyncIterable<ObjectInfo> {
    let token: string | undefined;
    do {
      let page: ListObjectsV2CommandOutput;
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.fullKey(under), ContinuationToken: token }));
      } catch (err) {
        throw storeError(err, 'LIST', this.fullKey(under));
      }
      for (const item of page.Contents ?? [])
        if (item.Key)
          yield {
            key: item.Key.slice(this.location.prefix.length),
            size: item.Size ?? 0,
            lastModified: item.LastModified ?? new Date(0),
            etag: (item.ETag ?? '').replace(/^W\//, '').replace(/"/g, ''),
          };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000).map((key) => ({ Key: this.fullKey(key) }));
      try {
        const res = await this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: batch, Quiet: true } }));
        const failed = res.Errors?.[0];
        if (failed) throw new StoreError('E_STORE_UNREACHABLE', `DELETE failed: ${failed.Code}: ${failed.Message}`, failed.Key);
      } catch (err) {
        if (err instanceof StoreError) throw err;
        throw storeError(err, 'DELETE', this.fullKey(batch[0].Key));
      }
    }
  }

  destroy(): void {
    this.client.destroy();
  }
}
