import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { COMPRESS_MIN_BYTES } from '../http/compression.js';
import { TaggedBody } from '../serve/text-body.js';
import { ASSET_CACHE_CONTROL, ASSET_HEADERS } from './headers.js';

/** The package's `web/explorer/`, two levels above this file both in `src/explorer/` and in `dist/explorer/`. */
export const ASSETS_DIR = fileURLToPath(new URL('../../web/explorer/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
};

const hash = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The page's script, stylesheet and icon, read once when the server starts: each kept with its
 * ETag (its bytes' hash) and its brotli and gzip bodies, compressed once at the best level. They
 * are served under `/assets/{version}/{name}`, where the version is a hash of every file, so an
 * ES module's relative imports stay within one version and a changed file is a new URL.
 */
export class ExplorerAssets {
  readonly version: string;
  private readonly bodies = new Map<string, TaggedBody>();

  constructor(dir = ASSETS_DIR) {
    let names: string[] = [];
    try {
      names = readdirSync(dir)
        .filter((name) => TYPES[extname(name)] !== undefined)
        .sort();
    } catch (err) {
      // A package without its web/ directory still serves the API and bare pages.
      process.stderr.write(
        `${JSON.stringify({ level: 'warn', message: `explorer assets not found in ${dir}: pages are served without script or style`, error: String(err) })}\n`,
      );
    }
    const all = createHash('sha256');
    for (const name of names) {
      const text = readFileSync(join(dir, name), 'utf8');
      all.update(`${name}\0${text}\0`);
      const bytes = Buffer.from(text);
      const encoded =
        bytes.length >= COMPRESS_MIN_BYTES
          ? {
              br: brotliCompressSync(bytes, {
                params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
              }),
              gzip: gzipSync(bytes, { level: 9 }),
            }
          : null;
      this.bodies.set(name, new TaggedBody(text, TYPES[extname(name)], `"${hash(bytes).slice(0, 16)}"`, ASSET_CACHE_CONTROL, ASSET_HEADERS, encoded));
    }
    this.version = all.digest('hex').slice(0, 12);
  }

  /** The URL of an asset, whether or not it exists (a missing one answers 404). */
  url(name: string): string {
    return `/assets/${this.version}/${name}`;
  }

  /** The asset at `/assets/{version}/{name}`, or undefined: an unknown name, or another version's. */
  get(version: string, name: string): TaggedBody | undefined {
    return version === this.version ? this.bodies.get(name) : undefined;
  }
}
