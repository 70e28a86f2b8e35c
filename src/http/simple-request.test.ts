import { describe, expect, it } from 'vitest';
import { parseSimpleRequest } from './simple-request.js';

const req = (head: string) => head.replace(/\n/g, '\r\n');

describe('parseSimpleRequest', () => {
  it('reads a complete GET or HEAD in origin form over HTTP/1.1 with a Host', () => {
    const text = req('GET /v1/song/1?include=albums HTTP/1.1\nHost: x\nAccept-Encoding:  gzip, br \nX-Request-Id: abc\n\nGET /next');
    const parsed = parseSimpleRequest(text)!;
    expect(parsed).toEqual({
      method: 'GET',
      url: '/v1/song/1?include=albums',
      headers: { host: 'x', 'accept-encoding': 'gzip, br', 'x-request-id': 'abc' },
      length: text.indexOf('GET /next'),
    });
    expect(parseSimpleRequest(req('HEAD / HTTP/1.1\nhost: x\nConnection: Keep-Alive\n\n'))?.method).toBe('HEAD');
  });

  it.each([
    ['incomplete', 'GET / HTTP/1.1\nHost: x\n'],
    ['another method', 'POST / HTTP/1.1\nHost: x\n\n'],
    ['HTTP/1.0', 'GET / HTTP/1.0\nHost: x\n\n'],
    ['absolute form', 'GET http://x/ HTTP/1.1\nHost: x\n\n'],
    ['a space in the target', 'GET /a b HTTP/1.1\nHost: x\n\n'],
    ['no Host', 'GET / HTTP/1.1\nAccept: */*\n\n'],
    ['a body', 'GET / HTTP/1.1\nHost: x\nContent-Length: 0\n\n'],
    ['chunked', 'GET / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n'],
    ['Expect', 'GET / HTTP/1.1\nHost: x\nExpect: 100-continue\n\n'],
    ['Upgrade', 'GET / HTTP/1.1\nHost: x\nUpgrade: websocket\nConnection: Upgrade\n\n'],
    ['Connection: close', 'GET / HTTP/1.1\nHost: x\nConnection: close\n\n'],
    ['a repeated header', 'GET / HTTP/1.1\nHost: x\nAccept: a\naccept: b\n\n'],
    ['a folded line', 'GET / HTTP/1.1\nHost: x\nAccept: a\n b\n\n'],
    ['no colon', 'GET / HTTP/1.1\nHost: x\nAccept\n\n'],
    ['a space before the colon', 'GET / HTTP/1.1\nHost : x\n\n'],
    ['a control character in a value', 'GET / HTTP/1.1\nHost: x\nAccept: a\u0001b\n\n'],
    ['a header block past 16 KiB', `GET / HTTP/1.1\nHost: x\nX-Big: ${'a'.repeat(16 * 1024)}\n\n`],
  ])('leaves %s to node:http', (_, head) => {
    expect(parseSimpleRequest(req(head))).toBeNull();
  });

  it('leaves bare line feeds to node:http', () => {
    expect(parseSimpleRequest('GET / HTTP/1.1\nHost: x\n\n')).toBeNull();
  });
});
