import type { Command } from 'commander';
import { verifySnapshot } from '../index-format/index.js';
import { CliError } from './cli-error.js';
import { bytes } from '../units/readable.js';

export function register(program: Command): void {
  program
    .command('verify')
    .description('recompute every checksum and digest of a snapshot; exit 1 on any mismatch')
    .argument('<snapshot>', 'a snapshot directory, or a dist directory (its current snapshot)')
    .option('--json', 'print the report as JSON', false)
    .action((path: string, opts: { json: boolean }) => {
      const started = Date.now();
      const report = verifySnapshot(path);
      if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      if (report.problems.length > 0) {
        const list = report.problems.map((p) => `  ${p.file}: ${p.code}: ${p.message}`).join('\n');
        throw new CliError(`snapshot ${report.buildId ?? path} FAILED verification (${report.problems.length} problem(s)):\n${list}`, 1);
      }
      if (!opts.json) {
        const seconds = ((Date.now() - started) / 1000).toFixed(2);
        process.stdout.write(`snapshot ${report.buildId} OK: ${report.shardsChecked} shards, ${bytes(report.bytesChecked)} verified in ${seconds} s\n`);
      }
    });
}
