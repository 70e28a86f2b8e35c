import type { Command } from 'commander';
import { Snapshot } from '../index-format/index.js';
import { bytes, count } from '../units/readable.js';
import { table } from './format.js';

export function register(program: Command): void {
  program
    .command('inspect')
    .description('show a snapshot: build id, counts, sources and every shard')
    .argument('<snapshot>', 'a snapshot directory, or a dist directory (its current snapshot)')
    .option('--json', 'print the manifest as JSON', false)
    .action((path: string, opts: { json: boolean }) => {
      const started = process.hrtime.bigint();
      const snapshot = Snapshot.open(path);
      const openMs = Number(process.hrtime.bigint() - started) / 1e6;
      try {
        const m = snapshot.manifest;
        if (opts.json) {
          const { structures: _omit, ...rest } = m;
          process.stdout.write(`${JSON.stringify({ dir: snapshot.dir, ...rest }, null, 2)}\n`);
          return;
        }
        const total = m.shards.reduce((sum, s) => sum + s.size, 0);
        const out: string[] = [
          `snapshot   ${snapshot.dir}`,
          `build id   ${m.buildId}   format ${m.formatVersion}   compiler ${m.compiler}`,
          `opened in  ${openMs.toFixed(1)} ms (${snapshot.manifestShard.file.mode})`,
          `counts     ${Object.entries(m.counts)
            .map(([k, v]) => `${k} ${count(v)}`)
            .join(', ')}`,
          `rejected   ${m.rejectedRows} rows`,
          ...(m.baseBuildId
            ? [
                `takedown   of build ${m.baseBuildId} (its shards shared): deletes set ${Object.entries(m.deletes ?? {})
                  .map(([k, v]) => `${k} ${count(v)}`)
                  .join(', ')}`,
              ]
            : []),
          '',
          'sources',
          table(m.sources.map((s) => [`  ${s.file}`, count(s.rows), bytes(s.bytes), s.sha256.slice(0, 16)])),
          '',
          `shards (${m.shards.length}, ${bytes(total)})`,
        ];
        const rows: (string | number)[][] = [['  file', 'kind', 'name', 'size', 'sections / entries', 'sha256']];
        for (const { entry, shard } of snapshot.listShards()) {
          const meta = shard.meta as Record<string, unknown>;
          const detail =
            typeof meta.count === 'number'
              ? `${count(meta.count)} ${entry.kind === 'KEYS' ? 'keys' : 'records'}`
              : `${shard.directory.sections.length} sections`;
          rows.push([`  ${entry.file}`, entry.kind, entry.name, bytes(entry.size), detail, entry.sha256.slice(0, 16)]);
        }
        out.push(table(rows));
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        snapshot.close();
      }
    });
}
