import type { Command } from 'commander';
import { compileCatalog, CompileError, DEFAULT_MEMORY_BYTES, formatMemorySize, MIN_MEMORY_BYTES, parseMemorySize, Progress } from '../compile/index.js';
import { CliError } from './cli-error.js';
import { runDeltaCompile } from './delta-compile-command.js';
import { bytes, count } from '../units/readable.js';

export function register(program: Command): void {
  program
    .command('compile')
    .description('compile a raw catalog directory into a snapshot, published atomically in <dist-dir>')
    .argument('<raw-dir>', 'directory of raw CSV files (docs/raw-format.md)')
    .requiredOption('-o, --out <dist-dir>', 'dist directory; the snapshot goes to <dist-dir>/snapshots/<build id> and <dist-dir>/current points at it')
    .option('--skip-invalid', 'drop invalid rows (listed with reasons in rejects.csv) instead of failing', false)
    .option('--keep <n>', 'snapshots to keep in the dist directory', (v) => Number.parseInt(v, 10), 3)
    .option('--max-errors <n>', 'errors to list when the compile fails', (v) => Number.parseInt(v, 10), 100)
    .option('--no-views', 'do not store pre-rendered default views (a smaller snapshot; the server renders every response)')
    .option(
      '--memory <size>',
      `memory budget of the whole compile, e.g. 1g, 512m (at least ${formatMemorySize(MIN_MEMORY_BYTES)}); sorts beyond it spill to a directory beside the output`,
      formatMemorySize(DEFAULT_MEMORY_BYTES),
    )
    .option(
      '--delta',
      "add the deliveries the raw catalog's change journal records since <dist-dir>/current was compiled as one delta segment over it (docs/segments.md), compiling only what they change",
      false,
    )
    .option('-q, --quiet', 'print nothing on success', false)
    .action(
      async (
        rawDir: string,
        opts: { out: string; skipInvalid: boolean; keep: number; maxErrors: number; quiet: boolean; views: boolean; memory: string; delta: boolean },
      ) => {
        const memoryBytes = parseMemorySize(opts.memory);
        if (memoryBytes === null) throw new CliError(`--memory: ${JSON.stringify(opts.memory)} is not a size such as 1g, 1.5GiB or 512m`, 2);
        if (memoryBytes < MIN_MEMORY_BYTES)
          throw new CliError(`--memory: a compile needs at least ${formatMemorySize(MIN_MEMORY_BYTES)} (got ${formatMemorySize(memoryBytes)})`, 2);
        if (opts.delta) {
          if (opts.skipInvalid) throw new CliError('--delta: --skip-invalid is not supported (a delta compile publishes nothing when a row is invalid)', 2);
          await runDeltaCompile(rawDir, opts.out, { keep: opts.keep, memoryBytes, quiet: opts.quiet });
          return;
        }
        try {
          const result = await compileCatalog({
            rawDir,
            outDir: opts.out,
            skipInvalid: opts.skipInvalid,
            keep: opts.keep,
            maxIssues: opts.maxErrors,
            views: opts.views,
            memoryBytes,
            progress: new Progress(process.stderr),
          });
          if (opts.quiet) return;
          const m = result.manifest;
          const size = m.shards.reduce((sum, s) => sum + s.size, 0);
          const rows = m.sources.reduce((sum, s) => sum + s.rows, 0);
          const lines = [
            `compiled ${rawDir} -> ${result.snapshotDir}`,
            `  build id   ${result.buildId}`,
            `  songs ${count(m.counts.songs)}, albums ${count(m.counts.albums)}, artists ${count(m.counts.artists)}, playlists ${count(m.counts.playlists)}, stations ${count(m.counts.stations)}, genres ${count(m.counts.genres)}, files ${count(m.counts.files)}, lyrics ${count(m.counts.lyrics)}`,
            `  read       ${count(rows)} rows from ${m.sources.length} files in ${result.seconds.toFixed(1)} s (${count(Math.round(rows / Math.max(result.seconds, 0.001)))} rows/s)`,
            `  wrote      ${m.shards.length + 1} shards, ${bytes(size)} (${Math.round(size / Math.max(1, m.counts.songs))} bytes per song)`,
            `  rejected   ${result.rejectedRows} rows${result.rejectsPath ? ` (see ${result.rejectsPath})` : ''}`,
            `  phases     ${result.phases.map((p) => `${p.phase} ${p.seconds.toFixed(1)} s`).join(', ')}`,
          ];
          process.stdout.write(`${lines.join('\n')}\n`);
        } catch (err) {
          if (err instanceof CompileError) throw new CliError(err.message, 2);
          throw err;
        }
      },
    );
}
