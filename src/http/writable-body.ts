import type { ServerResponse } from 'node:http';

/**
 * A response body that knows its length and writes itself into a buffer it is given: JSON with
 * stored views spliced in (interfaces/json-chunks.ts, JsonText). The fast core lays it straight
 * into the buffer it sends; node:http's response, which takes only bytes, gets `toBuffer()`.
 */
export interface WritableBody {
  readonly byteLength: number;
  writeInto(out: Buffer, at: number): number;
  toBuffer(): Buffer;
}

export type Body = string | Buffer | WritableBody;

/** Set on a response whose `end` takes a WritableBody as it is (fast-connection.ts). */
export const TAKES_WRITABLE_BODY = Symbol('omm.takesWritableBody');

/** The body in the form `res.end` takes: bytes for node:http, the body itself for the fast core. */
export function bodyFor(res: ServerResponse, body: Body): string | Buffer {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  return (res as unknown as Record<symbol, unknown>)[TAKES_WRITABLE_BODY] ? (body as unknown as Buffer) : body.toBuffer();
}

/** The body's length in bytes. */
export function byteLengthOf(body: Body): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : body.byteLength;
}

/** The body as bytes (for compression). */
export function bytesOf(body: Body): Buffer {
  return typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : body.toBuffer();
}
