import { mkdirSync } from 'node:fs';
import { generateModel } from './catalog-model.js';
import { DdexCatalogWriter } from './ddex-writer.js';
import type { CatalogShape, CatalogWriter } from './model.js';
import { MusicBrainzCatalogWriter } from './musicbrainz-writer.js';
import { RawCatalogWriter } from './raw-writer.js';

/** The formats `omm generate` writes the same synthetic catalog in. */
export const GENERATE_FORMATS = ['raw', 'ddex', 'musicbrainz'] as const;
export type GenerateFormat = (typeof GENERATE_FORMATS)[number];

export interface GenerateOptions {
  readonly songs: number;
  readonly seed?: number;
  readonly out: string;
  /** Default raw. */
  readonly format?: GenerateFormat;
  /**
   * A real catalog's heavy tail besides (heavy-tail.ts): generic titles shared by thousands of
   * songs, covers of hits, a few artists credited on a few percent of songs, box sets of hundreds
   * of tracks. Off by default: without it the files are what they always were for a seed.
   */
  readonly heavyTail?: boolean;
  readonly onProgress?: (songsDone: number, total: number) => void;
}

export interface GenerateSummary {
  readonly outDir: string;
  readonly format: GenerateFormat;
  /** What was written, by kind: raw rows per file, DDEX messages, MusicBrainz lines. */
  readonly rows: Record<string, number>;
  readonly seconds: number;
}

/**
 * Writes a synthetic catalog of `songs` songs, deterministically from `seed`: names in several
 * scripts with Zipf word frequencies, 1-3 credited artists per song, albums of 1-30 tracks (plus
 * compilations that reuse songs), valid unique ISRCs (a few shared), UPC-A and EAN-13 with GS1
 * check digits, power-law popularity.
 *
 * - `raw` (docs/raw-format.md) also has files for ~60% of songs and lyrics for ~20%, playlists,
 *   custom stations and explore groups;
 * - `ddex`: one ERN 4.3 NewReleaseMessage per album and compilation in folders of 1,000
 *   (`0000/al0.xml`), then `updates/`: a later message with a changed title for ~1% of albums
 *   and a PurgeReleaseMessage for ~0.5% (ddex-writer.ts);
 * - `musicbrainz`: JSON-lines dumps `mbdump/release` and `mbdump/artist` (musicbrainz-writer.ts).
 *
 * The last two hold what those formats carry: artists, albums, songs and their credits, not the
 * raw-only files, lyrics, playlists, stations or explore groups. Every format streams: memory
 * holds per-artist and per-album numbers and the songs compilations reuse, so 10M songs
 * generate in bounded memory.
 */
export async function generateCatalog(options: GenerateOptions): Promise<GenerateSummary> {
  const started = Date.now();
  const format = options.format ?? 'raw';
  mkdirSync(options.out, { recursive: true });
  const makeWriter = (shape: CatalogShape): CatalogWriter => {
    switch (format) {
      case 'raw':
        return new RawCatalogWriter(options.out, shape);
      case 'ddex':
        return new DdexCatalogWriter(options.out, shape);
      case 'musicbrainz':
        return new MusicBrainzCatalogWriter(options.out, shape);
    }
  };
  const rows = generateModel(options.songs, options.seed ?? 1, makeWriter, options.onProgress, options.heavyTail ?? false);
  return { outDir: options.out, format, rows, seconds: (Date.now() - started) / 1000 };
}
