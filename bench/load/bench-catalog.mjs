// The generated catalog the serving benchmarks share: bench/.data/raw-<songs>-1 (omm generate,
// seed 1) and its snapshot dist-<songs>-1, compiled again when other code compiled it
// (compiled-by.mjs). bench:load and bench:takedown both measure it. With `heavyTail`, the same
// seed with a real catalog's heavy tail (omm generate --heavy-tail): raw-<songs>-1-tail.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledBy, compilerDigest, markCompiledBy } from './compiled-by.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const work = join(root, 'bench', '.data');
const omm = join(root, 'bin', 'omm');

/** The raw catalog and snapshot of `songs` songs, generated and compiled when missing or stale. */
export function benchCatalog(songs, log, compileArgs = [], { heavyTail = false } = {}) {
  mkdirSync(work, { recursive: true });
  const name = `${songs}-1${heavyTail ? '-tail' : ''}`;
  const raw = join(work, `raw-${name}`);
  const dist = join(work, `dist-${name}`);
  if (!existsSync(join(raw, 'songs.csv')))
    execFileSync(process.execPath, [omm, 'generate', '--songs', String(songs), '--seed', '1', '--out', raw, ...(heavyTail ? ['--heavy-tail'] : [])], {
      stdio: 'inherit',
    });
  const digest = compilerDigest(join(root, 'dist'));
  if (!compiledBy(dist, digest)) {
    if (existsSync(dist)) log(`${dist} was compiled by other code: compiling it again`);
    rmSync(dist, { recursive: true, force: true });
    execFileSync(process.execPath, [omm, 'compile', raw, '-o', dist, '-q', ...compileArgs], { stdio: 'inherit' });
    markCompiledBy(dist, digest);
  }
  return { raw, dist };
}
