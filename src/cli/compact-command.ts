import type { Command } from 'commander';
import { CompileError, DEFAULT_MEMORY_BYTES, formatMemorySize, parseMemorySize } from '../compile/index.js';
import { compactSegments } from '../compile/delta/compact.js';
import { DeltaCompileError } from '../compile/delta/delta-changes.js';
import { CliError } from './cli-error.js';

export function register(program: Command): void {
  program
    .command('compact')
    .description('fold a snapshot made of a base and deltas into one, byte for byte the full compile of the raw catalog it answers for (docs/segments.md)')
    .argument('<dist-dir>', 'dist directory whose current snapshot has deltas (omm compile --delta)')
    .requiredOption('--raw <raw-dir>', 'the raw catalog the newest delta was compiled from (its files are checked against the snapshot)')
    .option('--keep <n>', 'snapshots to keep in the dist directory', (v) => Number.parseInt(v, 10), 3)
    .option('--memory <size>', 'memory budget of the compile, e.g. 1g, 512m', formatMemorySize(DEFAULT_MEMORY_BYTES))
    .action(async (distDir: string, opts: { raw: string; keep: number; memory: string }) => {
      const memoryBytes = parseMemorySize(opts.memory);
      if (memoryBytes === null) throw new CliError(`--memory: ${JSON.stringify(opts.memory)} is not a size such as 1g or 512m`, 2);
      try {
        const result = await compactSegments({ outDir: distDir, rawDir: opts.raw, keep: opts.keep, memoryBytes });
        if (!result) {
          process.stdout.write(`${distDir}/current has no deltas: nothing to compact\n`);
          return;
        }
        process.stdout.write(`compacted ${distDir} -> ${result.snapshotDir} in ${result.seconds.toFixed(1)} s\n  build id   ${result.buildId}\n`);
      } catch (err) {
        if (err instanceof CompileError || err instanceof DeltaCompileError) throw new CliError(err.message, 2);
        throw err;
      }
    });
}
