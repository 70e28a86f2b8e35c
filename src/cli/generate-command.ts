import { Option, type Command } from 'commander';
import { generateCatalog, GENERATE_FORMATS, type GenerateFormat } from '../generate/generate.js';
import { CliError } from './cli-error.js';
import { count } from '../units/readable.js';

export function register(program: Command): void {
  program
    .command('generate')
    .description(
      'write a synthetic, deterministic catalog (for benchmarks and scale tests): raw CSV, or the same catalog as DDEX or MusicBrainz input for the importers',
    )
    .requiredOption('--songs <n>', 'number of songs (artists = songs/20, albums = songs/10, compilations = albums/100)', (v) => Number.parseInt(v, 10))
    .option('--seed <s>', 'seed: the same seed writes byte-identical files', (v) => Number.parseInt(v, 10), 1)
    .addOption(
      new Option(
        '--format <format>',
        'raw: the raw CSV catalog, with files, lyrics, playlists, stations and explore groups; ' +
          'ddex: one ERN 4.3 NewReleaseMessage per album in folders of 1,000, then updates/ (a changed title for ~1% of albums, a PurgeReleaseMessage for ~0.5%); ' +
          'musicbrainz: JSON-lines dumps mbdump/release and mbdump/artist. ' +
          'ddex and musicbrainz hold artists, albums, compilations, songs and credits only: files, lyrics, playlists, stations and explore groups have no place in them',
      )
        .choices(GENERATE_FORMATS)
        .default('raw'),
    )
    .option(
      '--heavy-tail',
      "add a real catalog's heavy tail: generic titles thousands of songs share (Intro, Silent Night), covers of hits under the same title, " +
        'a few artists (Traditional, Bach, Mozart) credited on a few percent of songs, box sets of 100-500 tracks by Various Artists. ' +
        'Off by default: without it a seed writes the files it always wrote',
      false,
    )
    .requiredOption('-o, --out <dir>', 'directory to write (for raw, a raw catalog directory)')
    .action(async (opts: { songs: number; seed: number; format: GenerateFormat; out: string; heavyTail: boolean }) => {
      if (!Number.isInteger(opts.songs) || opts.songs < 1) throw new CliError(`--songs must be a positive integer, got ${opts.songs}`);
      if (!Number.isInteger(opts.seed)) throw new CliError(`--seed must be an integer, got ${opts.seed}`);
      const tty = process.stderr.isTTY;
      const started = Date.now();
      const summary = await generateCatalog({
        songs: opts.songs,
        seed: opts.seed,
        format: opts.format,
        out: opts.out,
        heavyTail: opts.heavyTail,
        onProgress: tty
          ? (done, total) =>
              process.stderr.write(
                `\r\x1b[2Kgenerating: ${count(done)}/${count(total)} songs, ${count(Math.round(done / Math.max(0.001, (Date.now() - started) / 1000)))} songs/s`,
              )
          : undefined,
      });
      if (tty) process.stderr.write('\r\x1b[2K');
      const rows = Object.entries(summary.rows)
        .map(([kind, n]) => `${kind} ${count(n)}`)
        .join(', ');
      const what = [summary.format === 'raw' ? '' : summary.format, opts.heavyTail ? 'heavy tail' : ''].filter(Boolean).join(', ');
      process.stdout.write(`generated ${summary.outDir}${what ? ` (${what})` : ''} in ${summary.seconds.toFixed(1)} s: ${rows}\n`);
    });
}
