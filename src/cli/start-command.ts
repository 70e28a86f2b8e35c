import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { compileCatalog, Progress } from '../compile/index.js';
import { verifySnapshot } from '../index-format/index.js';
import { CliError } from './cli-error.js';
import { count } from './format.js';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

export function register(program: Command): void {
  program
    .command('start')
    .description('compile the bundled sample catalog (data/raw) into dist-data and verify it')
    .option('--raw <dir>', 'raw catalog directory', `${packageRoot}data/raw`)
    .option('--out <dir>', 'dist directory', `${packageRoot}dist-data`)
    .action(async (opts: { raw: string; out: string }) => {
      const result = await compileCatalog({ rawDir: opts.raw, outDir: opts.out, progress: new Progress(process.stderr) });
      const report = verifySnapshot(opts.out);
      if (report.problems.length > 0) throw new CliError(`compiled snapshot failed verification: ${report.problems[0].message}`);
      const c = result.manifest.counts;
      process.stdout.write(
        `snapshot ${result.buildId} of ${opts.raw} is ready in ${result.snapshotDir} and verified ` +
          `(${count(c.songs)} songs, ${count(c.albums)} albums, ${count(c.artists)} artists, ${count(c.playlists)} playlists) in ${result.seconds.toFixed(1)} s.\n` +
          'The HTTP server arrives with the next issue; until then `npm start` compiles and verifies.\n',
      );
    });
}
