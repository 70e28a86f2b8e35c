// Which build compiled a bench snapshot: a digest of the built compiler (every file under dist/
// but the rooms the compiler never imports: the server's, the CLI's, the generator's...), kept
// beside the snapshot. A bench that finds a snapshot made
// by other code recompiles it, so it never measures a snapshot without what the code writes now
// (a server still answers an older snapshot, only without the newer precomputed parts).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const NOT_COMPILER = ['serve', 'cli', 'explorer', 'takedown', 'generate', 'import', 'diff', 'publish', 'replica', 'object-store'];

export function compilerDigest(distDir) {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === distDir && NOT_COMPILER.includes(entry.name)) continue;
        walk(path);
      } else if (entry.name.endsWith('.js')) hash.update(relative(distDir, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  walk(distDir);
  return hash.digest('hex').slice(0, 16);
}

const STAMP = '.compiled-by';

/** Whether the snapshot directory `dist` was compiled by the code whose digest is `digest`. */
export function compiledBy(dist, digest) {
  const stamp = join(dist, STAMP);
  return existsSync(join(dist, 'current')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === digest;
}

export function markCompiledBy(dist, digest) {
  writeFileSync(join(dist, STAMP), `${digest}\n`);
}
