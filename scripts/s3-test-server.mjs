#!/usr/bin/env node
// An S3-compatible server for the tests and benchmarks, on 127.0.0.1 only: s3rver (the
// @20minutes fork, pinned: it runs on Node 20), in this process, with what s3rver lacks added in
// front of it: conditional writes (PUT with If-Match or If-None-Match: * answers 412 when the
// object changed, as AWS, R2 and MinIO do), under a lock per key. docs/operations.md says what
// s3rver does not implement. Nothing is downloaded at run time.
//   import { startS3Server } from '../scripts/s3-test-server.mjs'
//   node scripts/s3-test-server.mjs --port 9000 --dir /tmp/s3 [--bucket omm]   (by hand)
// Credentials are s3rver's fixed S3RVER / S3RVER; the client sets AWS_ENDPOINT_URL to `endpoint`.
import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';

export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

// s3rver encrypts ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 no longer
// offers: any listing of more than 1,000 keys failed with 500. Triple DES with the key three times
// over is the same cipher, and OpenSSL 3 still has it.
for (const name of ['createCipheriv', 'createDecipheriv']) {
  const original = crypto[name];
  crypto[name] = function (algorithm, key, ...rest) {
    if (algorithm === 'des') return original.call(this, 'des-ede3-cbc', Buffer.concat([key, key, key]), ...rest);
    return original.call(this, algorithm, key, ...rest);
  };
}

const stripTag = (tag) =>
  String(tag ?? '')
    .trim()
    .replace(/^W\//, '')
    .replace(/^"|"$/g, '');

function preconditionFailed(res, key) {
  res.writeHead(412, { 'Content-Type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Key>${key}</Key></Error>`,
  );
}

/**
 * Starts the server. `directory` (default: a fresh temporary one, removed on close) holds the
 * objects; `buckets` are created first. Returns the endpoint, the environment a client of it
 * needs, `setReachable(false)` (every connection is then reset at once, as a store that cannot be
 * reached) and `close()`.
 */
export async function startS3Server({ directory, port = 0, buckets = ['omm-test'] } = {}) {
  const dir = directory ?? mkdtempSync(join(tmpdir(), 'omm-s3-'));
  const s3 = new S3rver({
    directory: dir,
    silent: !process.env.OMM_S3_VERBOSE,
    allowMismatchedSignatures: true,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  await s3.configureBuckets();
  const inner = s3.callback();
  const locks = new Map();
  let reachable = true;
  const conditional = async (req, res, bucket, key) => {
    const ifMatch = req.headers['if-match'];
    const ifNoneMatch = req.headers['if-none-match'];
    let etag = null;
    try {
      etag = stripTag((await s3.store.getMetadata(bucket, key)).etag);
    } catch {
      etag = null;
    }
    if (ifNoneMatch !== undefined && stripTag(ifNoneMatch) === '*' && etag !== null) return false;
    if (ifMatch !== undefined && (etag === null || stripTag(ifMatch) !== etag)) return false;
    return true;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const isWrite = req.method === 'PUT' && !url.searchParams.has('partNumber') && !req.headers['x-amz-copy-source'];
    if (!isWrite || (req.headers['if-match'] === undefined && req.headers['if-none-match'] === undefined)) return void inner(req, res);
    const [, bucket, ...rest] = url.pathname.split('/').map(decodeURIComponent);
    const key = rest.join('/');
    const lockKey = `${bucket}/${key}`;
    const previous = locks.get(lockKey) ?? Promise.resolve();
    const done = previous.then(async () => {
      if (!(await conditional(req, res, bucket, key))) {
        req.resume();
        return preconditionFailed(res, key);
      }
      await new Promise((resolve) => {
        res.once('close', resolve);
        inner(req, res);
      });
    });
    locks.set(
      lockKey,
      done.catch(() => undefined),
    );
  });
  server.on('connection', (socket) => {
    if (!reachable) socket.destroy();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const endpoint = `http://127.0.0.1:${server.address().port}`;
  return {
    endpoint,
    directory: dir,
    /** The environment of a client (omm publish, omm serve s3://...) of this server. */
    env: { ...S3_CREDENTIALS, AWS_ENDPOINT_URL: endpoint },
    setReachable(value) {
      reachable = value;
      if (!value) server.closeAllConnections();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          if (!directory) rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const started = await startS3Server({ port: Number(flag('port', '9000')), directory: flag('dir', undefined), buckets: [flag('bucket', 'omm')] });
  console.log(`s3-test-server: ${started.endpoint} (objects in ${started.directory}); a client needs:`);
  for (const [k, v] of Object.entries(started.env)) console.log(`  export ${k}=${v}`);
}
