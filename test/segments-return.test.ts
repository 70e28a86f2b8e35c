import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Catalog } from '../src/catalog/catalog.js';
import { publishDelta } from '../src/compile/delta/publish-delta.js';
import { compileCatalog } from '../src/compile/index.js';
import { readRawTables, writeRawTables, type RawTables } from '../src/generate/daily-changes.js';
import { generateCatalog } from '../src/generate/generate.js';
import { tempDir } from './helpers/raw-fixture.js';
import { everyDisagreement } from './helpers/segment-checks.js';

// A resource one delta took out and a later delivery brings back as it was (a playlist withdrawn
// for a day): the next delta serves it again, though nothing of it differs from the base's.

it('a resource a delta took out comes back with the delivery that restores it', async () => {
  const root = tempDir('omm-segments-return-');
  const seed = join(root, 'raw0');
  await generateCatalog({ songs: 300, seed: 2, out: seed });
  const base = readRawTables(seed);
  const playlist = base.rows.get('playlists')![0].id;
  const without: RawTables = {
    headers: base.headers,
    rows: new Map(
      [...base.rows].map(([file, rows]) => [
        file,
        file === 'playlists' ? rows.filter((r) => r.id !== playlist) : file === 'playlist_tracks' ? rows.filter((r) => r.playlist_id !== playlist) : rows,
      ]),
    ),
  };
  const dist = join(root, 'dist');
  await compileCatalog({ rawDir: seed, outDir: dist });
  for (const [day, tables] of [without, base].entries()) {
    const raw = join(root, `raw${day + 1}`);
    mkdirSync(raw);
    writeRawTables(tables, raw);
    const full = join(root, `full${day + 1}`);
    await compileCatalog({ rawDir: raw, outDir: full });
    const next = Catalog.open(full, { searchable: false });
    publishDelta(dist, next);
    next.close();
    const none = { records: [], keys: [], orders: [], search: [], match: [], verify: [] };
    expect(everyDisagreement(dist, full), `day ${day + 1}`).toEqual(none);
  }
}, 120_000);
