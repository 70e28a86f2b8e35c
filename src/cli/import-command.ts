import type { Command } from 'commander';
import { importChinook } from '../import/chinook.js';
import { importExportify } from '../import/exportify.js';
import { importMostStreamed } from '../import/most-streamed.js';
import type { ImportSummary } from '../import/raw-sink.js';
import { readDdex } from '../import/ddex/read-ddex.js';
import { readMusicBrainz } from '../import/musicbrainz/read-musicbrainz.js';
import { DEFAULT_IMPORT_MEMORY, runStreamedImport } from '../import/stage/run-import.js';
import type { CatalogSink, ImportReport } from '../import/stage/staged.js';
import { formatMemorySize, parseMemorySize } from '../compile/memory-budget.js';
import { CliError } from './cli-error.js';
import { count } from '../units/readable.js';
import { streamedImportReport } from './streamed-import-report.js';

interface StreamedOptions {
  out?: string;
  into?: string;
  strict: boolean;
  memory: string;
}

/** Runs a streamed importer (DDEX, MusicBrainz) and prints its summary. */
async function streamed(
  what: string,
  inputs: string[],
  opts: StreamedOptions,
  read: (sink: CatalogSink, report: ImportReport) => Promise<void>,
): Promise<void> {
  const memoryBytes = parseMemorySize(opts.memory);
  if (memoryBytes === null) throw new CliError(`--memory: ${JSON.stringify(opts.memory)} is not a size such as 160m or 1g`, 2);
  if ((opts.out === undefined) === (opts.into === undefined))
    throw new CliError('give either --out <raw-dir> (a new raw catalog) or --into <raw-dir> (apply to one)', 2);
  const into = opts.into !== undefined;
  const summary = await runStreamedImport(what, { out: (opts.out ?? opts.into)!, into, inputs, strict: opts.strict, memoryBytes }, read);
  process.stdout.write(streamedImportReport(what, summary));
}

function report(what: string, summary: ImportSummary): void {
  const rows = Object.entries(summary.rows)
    .map(([file, n]) => `${file} ${count(n)}`)
    .join(', ');
  process.stdout.write(`imported ${what} into ${summary.outDir}: ${rows}\n`);
  if (summary.warnings.length > 0) {
    process.stdout.write(
      `${summary.warnings.length} row(s) left out or trimmed:\n${summary.warnings
        .slice(0, 20)
        .map((w) => `  ${w}`)
        .join('\n')}\n`,
    );
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
    .action(async (files: string[], opts: { out: string; merge: boolean }) =>
      report(`${files.length} Exportify file(s)`, await importExportify(files, opts.out, { merge: opts.merge })),
    );
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
  const memory = [
    '--memory <size>',
    'memory for sorting before spilling to disk beside the output, e.g. 160m, 1g',
    formatMemorySize(DEFAULT_IMPORT_MEMORY).replace(' ', ''),
  ] as const;
  importer
    .command('ddex')
    .description('import DDEX ERN 3.8 and 4.1-4.3 messages (a delivery batch: later messages update earlier ones by release, takedowns remove them)')
    .argument('<inputs...>', 'ERN message files, or directories of them (walked for *.xml)')
    .option('-o, --out <raw-dir>', 'raw catalog directory to write; replaced only when the import succeeds')
    .option('--into <raw-dir>', 'apply the delivery to the raw catalog a previous import wrote there (docs/updates.md); replaced only when the import succeeds')
    .option('--strict', 'fail instead of skipping a recording without an ISRC or a release without an id', false)
    .option('--artwork-base-url <url>', 'absolute URL that relative cover-art file names are resolved against')
    .option(...memory)
    .action(async (inputs: string[], opts: StreamedOptions & { artworkBaseUrl?: string }) => {
      if (opts.artworkBaseUrl !== undefined && !/^https?:\/\/[^/]/i.test(opts.artworkBaseUrl))
        throw new CliError(`--artwork-base-url: ${JSON.stringify(opts.artworkBaseUrl)} is not an absolute http(s) URL`, 2);
      await streamed('DDEX', inputs, opts, (sink, rep) => readDdex(inputs, sink, rep, { artworkBaseUrl: opts.artworkBaseUrl }));
    });
  importer
    .command('musicbrainz')
    .description('import MusicBrainz JSON: dump files (one entity per line; .gz, .xz, .tar.xz) or WS/2 responses')
    .argument('<inputs...>', 'JSON-lines dump files or archives, WS/2 JSON documents, or directories of them')
    .option('-o, --out <raw-dir>', 'raw catalog directory to write; replaced only when the import succeeds')
    .option('--into <raw-dir>', 'apply the inputs to the raw catalog a previous import wrote there (docs/updates.md); replaced only when the import succeeds')
    .option('--strict', 'fail instead of skipping an entity without an id', false)
    .option(...memory)
    .action(async (inputs: string[], opts: StreamedOptions) => streamed('MusicBrainz', inputs, opts, (sink, rep) => readMusicBrainz(inputs, sink, rep)));
}
