import type { Command } from 'commander';
import { generateCatalog } from '../generate/generate.js';
import { CliError } from './cli-error.js';
import { count } from './format.js';

export function register(program: Command): void {
  program
    .command('generate')
    .description('write a synthetic, deterministic raw catalog (for benchmarks and scale tests)')
    .requiredOption('--songs <n>', 'number of songs (artists = songs/20, albums = songs/10)', (v) => Number.parseInt(v, 10))
    .option('--seed <s>', 'seed: the same seed writes byte-identical files', (v) => Number.parseInt(v, 10), 1)
    .requiredOption('-o, --out <raw-dir>', 'raw catalog directory to write')
    .action(async (opts: { songs: number; seed: number; out: string }) => {
      if (!Number.isInteger(opts.songs) || opts.songs < 1) throw new CliError(`--songs must be a positive integer, got ${opts.songs}`);
      if (!Number.isInteger(opts.seed)) throw new CliError(`--seed must be an integer, got ${opts.seed}`);
      const tty = process.stderr.isTTY;
      const started = Date.now();
      const summary = await generateCatalog({
        songs: opts.songs,
        seed: opts.seed,
        out: opts.out,
        onProgress: tty
          ? (done, total) => process.stderr.write(`\r\x1b[2Kgenerating: ${count(done)}/${count(total)} songs, ${count(Math.round(done / Math.max(0.001, (Date.now() - started) / 1000)))} songs/s`)
          : undefined,
      });
      if (tty) process.stderr.write('\r\x1b[2K');
      const rows = Object.entries(summary.rows).map(([file, n]) => `${file} ${count(n)}`).join(', ');
      process.stdout.write(`generated ${summary.outDir} in ${summary.seconds.toFixed(1)} s: ${rows}\n`);
    });
}
