import { CompileError } from '../compile/index.js';
import { compileDeltaWithPolicy, MAX_DELTAS } from '../compile/delta/fold-policy.js';
import { DeltaCompileError } from '../compile/delta/delta-changes.js';
import { bytes, count } from '../units/readable.js';
import { CliError } from './cli-error.js';

/** `omm compile <raw> -o <dist> --delta`: one delta segment from the change journal, and a summary. */
export async function runDeltaCompile(rawDir: string, outDir: string, opts: { keep: number; memoryBytes: number; quiet: boolean }): Promise<void> {
  const started = process.hrtime.bigint();
  const phases: string[] = [];
  try {
    const outcome = await compileDeltaWithPolicy({
      rawDir,
      outDir,
      keep: opts.keep,
      memoryBytes: opts.memoryBytes,
      onPhase: (phase, seconds) => {
        phases.push(`${phase} ${seconds.toFixed(1)} s`);
        if (!opts.quiet) process.stderr.write(`  ${phase}: ${seconds.toFixed(1)} s\n`);
      },
    });
    if (opts.quiet) return;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (!outcome) {
      process.stdout.write(`no changes in ${rawDir}'s change journal since ${outDir}/current was compiled: nothing published\n`);
      return;
    }
    if (outcome.kind === 'folded') {
      process.stdout.write(
        `compiled ${rawDir} in full -> ${outcome.full.snapshotDir}: the snapshot in service had ${outcome.deltas} deltas (at most ${MAX_DELTAS}), now folded into one snapshot in ${seconds.toFixed(1)} s\n  build id   ${outcome.full.buildId}\n`,
      );
      return;
    }
    const result = outcome.delta;
    const held = Object.entries(result.held)
      .filter(([, n]) => n > 0)
      .map(([type, n]) => `${type} ${count(n)}`)
      .join(', ');
    const removed = Object.entries(result.removed)
      .filter(([, n]) => n > 0)
      .map(([type, n]) => `${type} ${count(n)}`)
      .join(', ');
    const lines = [
      `compiled the delta of ${rawDir} -> ${result.dir} (${result.segments} segments)`,
      `  build id   ${result.buildId}`,
      `  holds      ${held || 'nothing'}`,
      `  took out   ${removed || 'nothing'}`,
      `  compiled   ${count(result.compiledSongs)} songs (the delivery's and their neighbours') in ${seconds.toFixed(1)} s`,
      `  wrote      ${bytes(result.bytesWritten)}`,
      `  phases     ${phases.join(', ')}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (err) {
    if (err instanceof CompileError || err instanceof DeltaCompileError) throw new CliError(err.message, 2);
    throw err;
  }
}
