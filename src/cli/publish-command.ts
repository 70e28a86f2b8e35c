import type { Command } from 'commander';
import { parseStoreUrl, S3ObjectStore, storeUrl } from '../object-store/index.js';
import { publishBuild, type PublishProgress, type PublishSummary } from '../publish/index.js';
import { bytes, count } from '../units/readable.js';
import { CliError } from './cli-error.js';
import { integer } from './flag-numbers.js';

function minutes(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new CliError(`${flag} must be a number of minutes >= 0, got ${JSON.stringify(value)}`);
  return n;
}

interface PublishFlags {
  keep?: string;
  concurrency: string;
  pruneGrace: string;
  json: boolean;
}

/** A progress line redrawn in place on a terminal (nothing when stderr is not one). */
function progressLine(): (event: PublishProgress) => void {
  if (!process.stderr.isTTY) return () => undefined;
  let last = 0;
  return (event) => {
    const now = Date.now();
    const finished = event.phase === 'chunking' ? event.filesDone === event.files : event.chunksDone === event.chunksToUpload;
    if (now - last < 100 && !finished) return;
    last = now;
    const text =
      event.phase === 'chunking'
        ? `chunking ${event.filesDone}/${event.files} files`
        : `uploading ${count(event.chunksDone)}/${count(event.chunksToUpload)} chunks, ${bytes(event.bytesDone)} of ${bytes(event.bytesToUpload)}`;
    process.stderr.write(`\r\x1b[K${text}${finished ? '\n' : ''}`);
  };
}

function summary(url: string, r: PublishSummary): string {
  const share = r.bytes > 0 ? Math.round((100 * r.bytesUploaded) / r.bytes) : 0;
  const lines = [
    `published build ${r.buildId} to ${url}: ${r.files} files, ${bytes(r.bytes)}`,
    `  uploaded ${count(r.chunksUploaded)} of ${count(r.chunks)} chunks, ${bytes(r.bytesUploaded)} (${share}% of the build); the rest were in the store already${r.chunksRepaired ? `; ${r.chunksRepaired} of them were damaged in the store and sent again` : ''}`,
    r.pointer.outcome === 'already'
      ? '  the pointer already named this build'
      : r.pointer.outcome === 'renamed'
        ? '  the pointer already named this build, and was written again so replicas that refused it try again'
        : `  pointer moved from ${r.pointer.previous ?? '(none)'}${r.pointer.retries ? ` after ${r.pointer.retries} lost conditional write(s)` : ''}`,
    `  in ${(r.ms.total / 1000).toFixed(1)} s (chunking ${(r.ms.chunking / 1000).toFixed(1)} s, uploading ${(r.ms.uploading / 1000).toFixed(1)} s)`,
  ];
  if (r.pruned)
    lines.push(
      `  pruned ${r.pruned.buildsDeleted} build(s) and ${count(r.pruned.chunksDeleted)} chunks (${bytes(r.pruned.bytesDeleted)}); kept ${r.pruned.keptBuilds.join(', ')}`,
    );
  return `${lines.join('\n')}\n`;
}

export function register(program: Command): void {
  program
    .command('publish')
    .description('upload a snapshot to an object store (S3 API): chunks it lacks, the build descriptor, then the current pointer')
    .argument('<snapshot>', 'a snapshot directory, or a dist directory (its current snapshot)')
    .argument('<store>', 's3://bucket/prefix/')
    .option('--keep <n>', 'after publishing, keep this many builds in the store (the new one included) and delete the others and the chunks only they used')
    .option('--concurrency <n>', 'uploads in flight at once', '8')
    .option('--prune-grace <minutes>', 'with --keep: objects younger than this are never deleted (a publish running meanwhile may be about to name them)', '60')
    .option('--json', 'print the summary as JSON', false)
    .addHelpText(
      'after',
      `
Credentials, region and endpoint come from the AWS SDK's environment and profiles (AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY, AWS_PROFILE, AWS_REGION; AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL for MinIO, R2,
Ceph or GCS; AWS_S3_FORCE_PATH_STYLE=1 for path-style addressing), never from flags.

Examples:
  omm publish dist s3://catalog-builds/prod/ --keep 5
  AWS_ENDPOINT_URL=http://127.0.0.1:9000 omm publish dist s3://omm/dev/`,
    )
    .action(async (snapshot: string, url: string, flags: PublishFlags) => {
      const location = parseStoreUrl(url);
      const store = new S3ObjectStore(location);
      try {
        const result = await publishBuild(snapshot, store, {
          keep: flags.keep === undefined ? undefined : integer('--keep', flags.keep, 1, 10_000),
          concurrency: integer('--concurrency', flags.concurrency, 1, 256),
          pruneGraceMs: Math.round(minutes('--prune-grace', flags.pruneGrace) * 60_000),
          progress: progressLine(),
        });
        process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : summary(storeUrl(location), result));
      } finally {
        store.destroy();
      }
    });
}
