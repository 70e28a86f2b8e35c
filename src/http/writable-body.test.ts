import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { bodyFor, byteLengthOf, bytesOf, TAKES_WRITABLE_BODY, type WritableBody } from './writable-body.js';

const text = Buffer.from('{"a":"\u00e9"}');
const body: WritableBody = {
  byteLength: text.length,
  writeInto: (out, at) => at + text.copy(out, at),
  toBuffer: () => Buffer.from(text),
};

describe('writable bodies', () => {
  it('go to the fast core as they are and to node:http as bytes', () => {
    const fastRes = { [TAKES_WRITABLE_BODY]: true } as unknown as ServerResponse;
    const httpRes = {} as ServerResponse;
    expect(bodyFor(fastRes, body)).toBe(body);
    const bytes = bodyFor(httpRes, body);
    expect(Buffer.isBuffer(bytes) && bytes.equals(text)).toBe(true);
    expect(bodyFor(httpRes, 'x')).toBe('x');
  });

  it('measure and give their bytes like strings and buffers', () => {
    expect([byteLengthOf(body), byteLengthOf('{"a":"\u00e9"}'), byteLengthOf(text)]).toEqual([10, 10, 10]);
    expect(bytesOf(body).equals(text) && bytesOf('{"a":"\u00e9"}').equals(text) && bytesOf(text) === text).toBe(true);
  });
});
