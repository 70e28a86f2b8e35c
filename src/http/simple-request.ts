/**
 * The one shape of request the fast connection answers itself (fast-connection.ts): a complete
 * `GET` or `HEAD` in origin form over HTTP/1.1 with a Host, no body and nothing that changes how
 * the connection is framed. Everything else, malformed or merely unusual, is left to node:http,
 * which answers it as it always has: this reads a strict subset and never decides an error.
 */
export interface SimpleRequest {
  readonly method: 'GET' | 'HEAD';
  readonly url: string;
  /** Header names lower-cased, each given once. */
  readonly headers: Record<string, string>;
  /** Bytes the request took: its header block and the blank line after it. */
  readonly length: number;
}

/** node:http's default header block limit: a longer one is node's to refuse (431). */
export const MAX_SIMPLE_HEAD_BYTES = 16 * 1024;

/**
 * The header lines node:http keeps of a request (its parser's 2,000 names and values): past
 * them it drops the rest, so such a request is node's to answer.
 */
export const MAX_SIMPLE_HEADERS = 1000;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A character node:http refuses in a header value, read or written (ERR_INVALID_CHAR). */
export const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const BAD_TARGET = /[^\x21-\x7e]/;
/** Spaces and tabs around a header value (String.trim would take more). */
const OWS = /^[\t ]+|[\t ]+$/g;
/** Headers that frame a body or change the connection: their requests go to node:http. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'expect', 'upgrade', 'te', 'trailer', 'http2-settings']);

/**
 * The first request of `text` (the connection's unread bytes as latin1) when it is simple and
 * complete, else null: incomplete, another method or version, a body, a repeated or malformed
 * header, `Connection` other than keep-alive, no Host, more headers than node:http keeps.
 */
export function parseSimpleRequest(text: string): SimpleRequest | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0 || end + 4 > MAX_SIMPLE_HEAD_BYTES) return null;
  const lineEnd = text.indexOf('\r\n');
  const line = text.slice(0, lineEnd);
  let method: SimpleRequest['method'];
  if (line.startsWith('GET /')) method = 'GET';
  else if (line.startsWith('HEAD /')) method = 'HEAD';
  else return null;
  if (!line.endsWith(' HTTP/1.1')) return null;
  const url = line.slice(method.length + 1, line.length - 9);
  if (url.length === 0 || BAD_TARGET.test(url)) return null;
  const headers: Record<string, string> = {};
  let at = lineEnd + 2;
  let count = 0;
  while (at < end) {
    if (++count > MAX_SIMPLE_HEADERS) return null;
    const next = text.indexOf('\r\n', at);
    const colon = text.indexOf(':', at);
    if (colon < 0 || colon > next) return null;
    const name = text.slice(at, colon).toLowerCase();
    if (!TOKEN.test(name) || FRAMING.has(name) || Object.hasOwn(headers, name)) return null;
    const value = text.slice(colon + 1, next).replace(OWS, '');
    if (INVALID_HEADER_VALUE.test(value)) return null;
    if (name === 'connection' && value.toLowerCase() !== 'keep-alive') return null;
    headers[name] = value;
    at = next + 2;
  }
  if (headers.host === undefined) return null;
  return { method, url, headers, length: end + 4 };
}
