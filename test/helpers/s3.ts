import { S3ObjectStore, parseStoreUrl, s3ClientConfig } from '../../src/object-store/index.js';
// The test S3 server (s3rver with conditional writes added), shared with the benchmarks.
import { startS3Server } from '../../scripts/s3-test-server.mjs';

export interface TestStore {
  readonly endpoint: string;
  /** The environment of an `omm` child process that uses this store. */
  readonly env: Record<string, string>;
  /** A client (the real SDK) of `s3://omm-test/<prefix>`. */
  store(prefix?: string): S3ObjectStore;
  setReachable(value: boolean): void;
  close(): Promise<void>;
}

/** An S3-compatible server on 127.0.0.1, in this process, with one bucket: omm-test. */
export async function startTestStore(): Promise<TestStore> {
  const server = await startS3Server();
  const clients: S3ObjectStore[] = [];
  return {
    endpoint: server.endpoint,
    env: server.env,
    store(prefix = 'catalog/') {
      const client = new S3ObjectStore(parseStoreUrl(`s3://omm-test/${prefix}`), {
        ...s3ClientConfig(server.env),
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      clients.push(client);
      return client;
    },
    setReachable: (value) => server.setReachable(value),
    async close() {
      for (const c of clients) c.destroy();
      await server.close();
    },
  };
}
