import type { Command } from 'commander';
import { readDdex } from '../import/ddex/read-ddex.js';
import type { CatalogSink, ImportReport } from '../import/stage/staged.js';
import { takedown, type TakedownReport } from '../takedown/takedown.js';
import { idKey, isrcKey, listFileKeys, upcKey, type TakedownKey } from '../takedown/takedown-keys.js';
import { bytes, count } from '../units/readable.js';

interface TakedownFlags {
  isrc: string[];
  upc: string[];
  id: string[];
  file: string[];
  from: string[];
  strict: boolean;
  keep: string;
  json: boolean;
}

const many = (value: string, previous: string[]) => [...previous, value];

/**
 * The releases a DDEX delivery takes down: every PurgeReleaseMessage, and every release whose
 * deals take it down, as the importers read them (new releases and updates are not applied here:
 * `omm import --into` does that).
 */
async function ddexTakedowns(inputs: string[]): Promise<TakedownKey[]> {
  const keys: TakedownKey[] = [];
  const sink: CatalogSink = {
    release: () => undefined,
    song: () => undefined,
    artist: () => undefined,
    takedown: (_unit, albumId) => void keys.push({ kind: 'album', value: albumId }),
  };
  const report: ImportReport = {
    skip: (where, item, reason) => process.stderr.write(`omm takedown: ${where}: ${item} left out: ${reason}\n`),
    warn: () => undefined,
    unit: () => undefined,
  };
  await readDdex(inputs, sink, report);
  return keys;
}

function summary(dist: string, report: TakedownReport): string {
  const { plan } = report;
  const lines: string[] = [];
  const added = `${count(plan.added.song)} songs, ${count(plan.added.album)} albums, ${count(plan.added.artist)} artists`;
  if (report.buildId) lines.push(`taken down: ${added} (named: ${plan.named.song} songs, ${plan.named.album} albums, ${plan.named.artist} artists)`);
  else lines.push('nothing new taken down: the snapshot in service stays');
  if (plan.alreadyDown.length > 0) lines.push(`already taken down: ${plan.alreadyDown.length} key(s)`);
  if (plan.unknown.length > 0)
    lines.push(
      `unknown (not in snapshot ${report.from}): ${plan.unknown.length} key(s): ${plan.unknown.slice(0, 10).join(', ')}${plan.unknown.length > 10 ? ', …' : ''}`,
    );
  lines.push(`deletes set: ${count(plan.counts.songs)} songs, ${count(plan.counts.albums)} albums, ${count(plan.counts.artists)} artists`);
  if (report.buildId)
    lines.push(
      `published ${dist}/snapshots/${report.buildId} (from ${report.from}; ${bytes(report.bytesWritten)} written, every other shard shared) in ${report.ms} ms`,
    );
  return `${lines.join('\n')}\n`;
}

export function register(program: Command): void {
  program
    .command('takedown')
    .description(
      'take songs, albums and artists out of service without a compile: publishes a snapshot sharing every shard of the current one, plus a deletes set',
    )
    .argument('<dist>', 'the dist directory (its current snapshot is the one taken from)')
    .option('--isrc <isrc>', 'a song by ISRC (repeatable)', many, [])
    .option('--upc <upc>', 'an album by UPC/EAN (repeatable)', many, [])
    .option('--id <catalog-id>', 'a song, album or artist by catalog id, omm:<type>:<id> (repeatable)', many, [])
    .option('--file <list>', 'a file of keys, one per line: ISRCs, UPCs, catalog ids, or prefixed isrc:/upc:/id:/album: (repeatable)', many, [])
    .option('--from <ddex>', 'the releases a DDEX delivery takes down (PurgeReleaseMessage or takedown deals; files or directories, repeatable)', many, [])
    .option('--strict', 'fail (publishing nothing) when a key names nothing in the snapshot', false)
    .option('--keep <n>', 'snapshots kept in the dist directory', '3')
    .option('--json', 'print the report as JSON', false)
    .action(async (dist: string, opts: TakedownFlags) => {
      const keys: TakedownKey[] = [
        ...opts.isrc.map((v) => isrcKey(v)),
        ...opts.upc.map((v) => upcKey(v)),
        ...opts.id.map((v) => idKey(v)),
        ...opts.file.flatMap((f) => listFileKeys(f)),
      ];
      if (opts.from.length > 0) keys.push(...(await ddexTakedowns(opts.from)));
      const report = takedown(dist, keys, { strict: opts.strict, keep: Number(opts.keep) });
      if (opts.json) {
        const { plan, ...rest } = report;
        const set = { songs: plan.counts.songs, albums: plan.counts.albums, artists: plan.counts.artists };
        process.stdout.write(
          `${JSON.stringify({ ...rest, added: plan.added, named: plan.named, alreadyDown: plan.alreadyDown, unknown: plan.unknown, set }, null, 2)}\n`,
        );
      } else process.stdout.write(summary(dist, report));
    });
}
