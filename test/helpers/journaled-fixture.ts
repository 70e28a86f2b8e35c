import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileDelta, type DeltaCompileResult } from '../../src/compile/delta/compile-delta.js';
import { compileCatalog } from '../../src/compile/index.js';
import { applyDailyChanges, readRawTables, writeRawTables, type RawTables } from '../../src/generate/daily-changes.js';
import { generateCatalog } from '../../src/generate/generate.js';
import { rawChanges, writeJournal } from '../../src/generate/raw-changes.js';

export interface JournaledFixture {
  readonly dist: string;
  /** After each delivery, the dist directory of the full compile of the raw catalog. */
  readonly fulls: string[];
  readonly deltas: (DeltaCompileResult | null)[];
  /** The raw catalog after each delivery (raw1, raw2, ...). */
  readonly raws: string[];
}

/**
 * A generated catalog compiled, then deliveries applied to its raw catalog with their change
 * journal (as `omm import --into` leaves it; with `withoutOwnGenres` n, every n-th artist names
 * no genre of their own), each compiled as a delta from the journal
 * (compile-delta.ts, or `compile`) beside a full compile of the same raw catalog. `deliver` makes each round's
 * raw catalog (daily-changes.ts by default); `onDelta` is told after each.
 */
export async function journaledFixture(
  root: string,
  {
    songs = 2500,
    seed = 7,
    rounds = 2,
    deliver = (t: RawTables, round: number) => applyDailyChanges(t, round),
    withoutOwnGenres = 0,
    compile = (rawDir: string, outDir: string) => compileDelta({ rawDir, outDir }),
  }: {
    songs?: number;
    seed?: number;
    rounds?: number;
    deliver?: (t: RawTables, round: number) => RawTables;
    withoutOwnGenres?: number;
    compile?: (rawDir: string, outDir: string) => Promise<DeltaCompileResult | null>;
  } = {},
  onDelta: (round: number, full: string) => void = () => undefined,
): Promise<JournaledFixture> {
  const dist = join(root, 'dist');
  let raw = join(root, 'raw0');
  await generateCatalog({ songs, seed, out: raw });
  let tables = readRawTables(raw);
  if (withoutOwnGenres > 0) {
    // Every n-th artist names no genre: theirs are their songs' (derived-relations.ts).
    tables.rows.get('artists')!.forEach((a, i) => {
      if (i % withoutOwnGenres === 0) a.genres = '';
    });
    writeRawTables(tables, raw);
  }
  await compileCatalog({ rawDir: raw, outDir: dist });
  const fulls: string[] = [];
  const deltas: (DeltaCompileResult | null)[] = [];
  const raws: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    const after = deliver(tables, round);
    const next = join(root, `raw${round}`);
    mkdirSync(next);
    writeRawTables(after, next);
    writeJournal(next, raw, rawChanges(tables, after));
    tables = after;
    raw = next;
    raws.push(next);
    const full = join(root, `full${round}`);
    await compileCatalog({ rawDir: next, outDir: full });
    fulls.push(full);
    deltas.push(await compile(next, dist));
    onDelta(round, full);
  }
  return { dist, fulls, deltas, raws };
}
