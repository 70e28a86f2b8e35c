import type { Command } from 'commander';
import { importChinook } from '../import/chinook.js';
import { importExportify } from '../import/exportify.js';
import { importMostStreamed } from '../import/most-streamed.js';
import type { ImportSummary } from '../import/raw-sink.js';
import { count } from './format.js';

function report(what: string, summary: ImportSummary): void {
  const rows = Object.entries(summary.rows).map(([file, n]) => `${file} ${count(n)}`).join(', ');
  process.stdout.write(`imported ${what} into ${summary.outDir}: ${rows}\n`);
  if (summary.warnings.length > 0) {
    process.stdout.write(`${summary.warnings.length} row(s) left out or trimmed:\n${summary.warnings.slice(0, 20).map((w) => `  ${w}`).join('\n')}\n`);
    if (summary.warnings.length > 20) process.stdout.write(`  ... and ${summary.warnings.length - 20} more\n`);
  }
}

export function register(program: Command): void {
  const importer = program.command('import').description('convert a catalog export into the raw format (docs/importers.md)');
  importer
    .command('chinook')
    .description('import the Chinook sample database (ChinookData.json)')
    .argument('<ChinookData.json>', 'the Chinook JSON data file')
    .requiredOption('-o, --out <raw-dir>', 'raw catalog directory to write')
    .option('--merge', 'append to an existing raw directory, skipping ids already there', false)
    .action(async (json: string, opts: { out: string; merge: boolean }) => report('Chinook', await importChinook(json, opts.out, { merge: opts.merge })));
  importer
    .command('exportify')
    .description('import Exportify playlist exports (CSV), one playlist per file')
    .argument('<files...>', 'Exportify CSV files')
    .requiredOption('-o, --out <raw-dir>', 'raw catalog directory to write')
    .option('--merge', 'append to an existing raw directory, skipping ids already there', false)
    .action(async (files: string[], opts: { out: string; merge: boolean }) => report(`${files.length} Exportify file(s)`, await importExportify(files, opts.out, { merge: opts.merge })));
  importer
    .command('most-streamed')
    .description('import the "Most Streamed Spotify Songs 2024" table (UTF-8 or Windows-1252)')
    .argument('<file.csv>', 'the CSV table')
    .requiredOption('-o, --out <raw-dir>', 'raw catalog directory to write')
    .option('--merge', 'append to an existing raw directory, skipping ids already there', false)
    .action(async (file: string, opts: { out: string; merge: boolean }) => {
      const summary = await importMostStreamed(file, opts.out, { merge: opts.merge });
      report(`Most Streamed (${summary.encoding})`, summary);
    });
}
