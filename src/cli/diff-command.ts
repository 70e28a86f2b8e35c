import type { Command } from 'commander';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileCatalog, Progress } from '../compile/index.js';
import { diffMarkdown, diffText } from '../diff/diff-format.js';
import { diffCatalogs } from '../diff/snapshot-diff.js';
import { failedRules, FailOnSyntaxError, parseFailOn, type FailRule } from '../diff/thresholds.js';
import { CURRENT_FILE, MANIFEST_FILE } from '../index-format/manifest.js';
import { Catalog } from '../catalog/catalog.js';
import { CliError } from './cli-error.js';

/** Exit codes: 0 compared and no --fail-on rule tripped, 1 a rule tripped, 2 could not compare. */
export const DIFF_EXIT = { ok: 0, failed: 1, error: 2 } as const;

interface DiffFlags {
  json: boolean;
  markdown: boolean;
  sample: number;
  failOn?: string;
}

/** A snapshot or dist directory opens as is; a raw directory (songs.csv, no manifest) is compiled to a temporary dist first. */
async function openSide(path: string, temps: string[]): Promise<Catalog> {
  const isRaw = existsSync(join(path, 'songs.csv')) && !existsSync(join(path, MANIFEST_FILE)) && !existsSync(join(path, CURRENT_FILE));
  // Records only: a snapshot from an older compiler, whose search index this version cannot read, still compares.
  if (!isRaw) return Catalog.open(path, { searchable: false });
  const out = mkdtempSync(join(tmpdir(), 'omm-diff-'));
  temps.push(out);
  process.stderr.write(`omm diff: compiling raw directory ${path}\n`);
  await compileCatalog({ rawDir: path, outDir: out, progress: new Progress(process.stderr) });
  return Catalog.open(out, { searchable: false });
}

export function register(program: Command): void {
  program
    .command('diff')
    .description('compare two snapshots (or a snapshot and a raw directory): added, removed and changed records, changed catalog ids, songs per genre')
    .argument('<old>', 'snapshot, dist or raw directory')
    .argument('<new>', 'snapshot, dist or raw directory')
    .option('--json', 'print the report as JSON', false)
    .option('--markdown', 'print the report as Markdown (for a pull-request comment)', false)
    .option('--sample <n>', 'ids listed per kind of change and type', (v) => Number.parseInt(v, 10), 5)
    .option('--fail-on <rules>', 'exit 1 when any rule holds, e.g. "removed>100,changed-ids>0,songs.added>=5000"')
    .addHelpText(
      'after',
      '\nExit status: 0 no rule tripped, 1 a --fail-on rule tripped, 2 the snapshots could not be compared.\n\nExamples:\n  omm diff dist-old dist-new\n  omm diff dist data/raw --markdown --fail-on "removed>100,changed-ids>0" > diff.md',
    )
    .action(async (oldPath: string, newPath: string, flags: DiffFlags) => {
      if (flags.json && flags.markdown) throw new CliError('--json and --markdown are exclusive', DIFF_EXIT.error);
      if (!Number.isInteger(flags.sample) || flags.sample < 0) throw new CliError(`--sample must be a whole number >= 0, got ${flags.sample}`, DIFF_EXIT.error);
      let rules: FailRule[];
      try {
        rules = parseFailOn(flags.failOn ?? '');
      } catch (err) {
        if (err instanceof FailOnSyntaxError) throw new CliError(err.message, DIFF_EXIT.error);
        throw err;
      }
      const temps: string[] = [];
      const opened: Catalog[] = [];
      try {
        for (const path of [oldPath, newPath]) {
          try {
            opened.push(await openSide(path, temps));
          } catch (err) {
            throw new CliError(`cannot open ${path}: ${(err as Error).message}`, DIFF_EXIT.error);
          }
        }
        const report = diffCatalogs(opened[0], opened[1], { sample: flags.sample });
        const failed = failedRules(report, rules);
        const body = flags.json
          ? `${JSON.stringify({ ...report, failed: failed.map((f) => ({ rule: f.rule.text, value: f.value })) }, null, 2)}\n`
          : flags.markdown
            ? diffMarkdown(report, failed)
            : diffText(report, failed);
        process.stdout.write(body);
        process.exitCode = failed.length > 0 ? DIFF_EXIT.failed : DIFF_EXIT.ok;
      } finally {
        for (const c of opened) c.close();
        for (const t of temps) rmSync(t, { recursive: true, force: true });
      }
    });
}
