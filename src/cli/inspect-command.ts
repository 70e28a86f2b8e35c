import type { Command } from 'commander';
import { Snapshot } from '../index-format/index.js';
import { SEGMENT_HELD_TABLE, SEGMENT_REMOVED_TABLE } from '../index-format/manifest.js';
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
          ...segmentLines(snapshot),
          '',
          'sources',
          table(m.sources.map((s) => [`  ${s.file}`, count(s.rows), bytes(s.bytes), s.sha256.slice(0, 16)])),
          '',
          `shards (${m.shards.length}, ${bytes(total)})`,
        ];
        const segmented = m.segments !== undefined;
        const rows: (string | number)[][] = [['  file', 'kind', 'name', 'size', 'sections / entries', 'sha256', ...(segmented ? ['segment'] : [])]];
        for (const { entry, shard } of snapshot.listShards()) {
          const meta = shard.meta as Record<string, unknown>;
          const detail =
            typeof meta.count === 'number'
              ? `${count(meta.count)} ${entry.kind === 'KEYS' ? 'keys' : 'records'}`
              : `${shard.directory.sections.length} sections`;
          const segment = segmented ? [String(entry.segment ?? 0)] : [];
          rows.push([`  ${entry.file}`, entry.kind, entry.name, bytes(entry.size), detail, entry.sha256.slice(0, 16), ...segment]);
        }
        out.push(table(rows));
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        snapshot.close();
      }
    });
}

/** A segmented snapshot's segments (docs/segments.md): each delta with what it holds and takes out, and its bytes. */
function segmentLines(snapshot: Snapshot): string[] {
  const segments = snapshot.manifest.segments;
  if (!segments) return [];
  return segments.map((segment, s) => {
    const size = snapshot.manifest.shards.filter((e) => (e.segment ?? 0) === s).reduce((sum, e) => sum + e.size, 0);
    const head = `segment ${s}  ${segment.role.padEnd(5)} build ${segment.buildId}  ${bytes(size)}`;
    if (s === 0) return head;
    const listed = (table: string) => {
      const arrays = snapshot.arrays(table, s);
      return ['song', 'album', 'artist']
        .filter((type) => arrays.has(type))
        .map((type) => `${type}s ${count(arrays.column(type).length)}`)
        .join(', ');
    };
    return `${head}: holds ${listed(SEGMENT_HELD_TABLE)}; takes out ${listed(SEGMENT_REMOVED_TABLE)}`;
  });
}
