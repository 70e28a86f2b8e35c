import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Bodies shorter than this go out as they are: the headers would eat the saving. */
export const COMPRESS_MIN_BYTES = 1024;
/** Brotli at quality 4 compresses JSON about as well as gzip -6, several times faster than brotli's default 11. */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

/**
 * The encoding to send for an Accept-Encoding header: brotli when accepted, then gzip; none
 * when neither is, or when the client gives them q=0.
 */
export function negotiateEncoding(accept: string | undefined): Encoding | null {
  if (!accept) return null;
  let br = false;
  let gzip = false;
  let star = false;
  for (const part of accept.split(',')) {
    const [nameRaw, ...params] = part.trim().split(';');
    const name = nameRaw.trim().toLowerCase();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name === 'br') br = accepted;
    else if (name === 'gzip' || name === 'x-gzip') gzip = accepted;
    else if (name === '*') star = accepted;
  }
  if (br) return 'br';
  if (gzip) return 'gzip';
  return star ? 'br' : null;
}

export function compress(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipSync(body, { level: GZIP_LEVEL });
}

/**
 * Compressed bodies of large responses, kept per snapshot: a response this big (the OpenAPI
 * document, long lists) is asked for again and again, and compressing it is the costly part.
 */
export class CompressedCache {
  private readonly entries = new Map<string, Buffer>();

  constructor(
    readonly minBytes = 32 * 1024,
    private readonly maxEntries = 256,
  ) {}

  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Buffer): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
  }
}
