import type { Command } from 'commander';
import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { compileCatalog, Progress, sameRawFiles } from '../compile/index.js';
import { verifySnapshot } from '../index-format/index.js';
import { Catalog } from '../catalog/catalog.js';
import { CliError } from './cli-error.js';
import { count } from '../units/readable.js';
import { addServeOptions, serveSnapshot, type ServeFlags } from './serve-command.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * True when the dist directory's current snapshot was compiled from exactly these raw files,
 * this server can read it and it holds the views this server sends (a snapshot from an older
 * compiler, or one compiled with --no-views, is rebuilt).
 */
async function upToDate(rawDir: string, outDir: string): Promise<boolean> {
  try {
    const catalog = Catalog.open(outDir);
    const sources = catalog.snapshot.manifest.sources;
    const hasViews = catalog.views !== null;
    catalog.close();
    // Hashed in chunks, as the compile hashes them: a raw file may be larger than one Buffer.
    return hasViews && (await sameRawFiles(rawDir, sources));
  } catch {
    return false;
  }
}

export function register(program: Command): void {
  addServeOptions(
    program
      .command('start')
      .description('compile the bundled sample catalog (data/raw) into dist-data when it changed, verify it, and serve it')
      .option('--raw <dir>', 'raw catalog directory', `${packageRoot}data/raw`)
      .option('--out <dir>', 'dist directory', `${packageRoot}dist-data`)
      .option('--no-serve', 'compile and verify only'),
  ).action(async (opts: ServeFlags & { raw: string; out: string; serve: boolean }) => {
    // A worker of `--workers N` runs this command again: it serves what its primary compiled
    // and verified, instead of hashing the raw files and verifying every page once more.
    if (cluster.isWorker) {
      await serveSnapshot(opts.out, opts);
      return;
    }
    if (await upToDate(opts.raw, opts.out)) {
      process.stderr.write(`omm: ${opts.out} is up to date with ${opts.raw}\n`);
    } else {
      const result = await compileCatalog({ rawDir: opts.raw, outDir: opts.out, progress: new Progress(process.stderr) });
      const c = result.manifest.counts;
      process.stderr.write(
        `omm: compiled snapshot ${result.buildId} (${count(c.songs)} songs, ${count(c.albums)} albums, ${count(c.artists)} artists, ${count(c.playlists)} playlists) in ${result.seconds.toFixed(1)} s\n`,
      );
    }
    const report = verifySnapshot(opts.out);
    if (report.problems.length > 0) throw new CliError(`snapshot in ${opts.out} failed verification: ${report.problems[0].message}`);
    if (opts.serve) await serveSnapshot(opts.out, opts);
  });
}
