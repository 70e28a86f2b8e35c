import type { FormatError } from './errors.js';
import { MANIFEST_FILE, type ManifestShard } from './manifest.js';
import { join } from 'node:path';
import { runSteps } from './shards/shard-reader.js';
import { Snapshot, type OpenSnapshotOptions } from './snapshot.js';

export interface VerifyProblem {
  readonly file: string;
  readonly code: string;
  readonly message: string;
}

export interface VerifyOptions extends OpenSnapshotOptions {
  /**
   * Shards not to verify again: a reloader passes those the snapshot in service shares with the
   * new one (the same file, hard-linked by omm takedown), verified when that one came in.
   */
  readonly skip?: (entry: ManifestShard, path: string) => boolean;
}

export interface VerifyReport {
  readonly buildId: string | null;
  readonly shardsChecked: number;
  readonly bytesChecked: number;
  /** Shards `skip` left out. */
  readonly shardsSkipped?: number;
  readonly problems: VerifyProblem[];
}

/**
 * Recomputes every page CRC and every shard's SHA-256 against the manifest. Reports all
 * problems rather than stopping at the first.
 */
export function verifySnapshot(path: string, options: OpenSnapshotOptions = {}): VerifyReport {
  return runSteps(verifySteps(path, options));
}

/**
 * The same check without holding the thread: yields to the event loop about every megabyte, so
 * a server can verify a new snapshot while it answers from the old one.
 */
export async function verifySnapshotAsync(path: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const steps = verifySteps(path, options);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function* verifySteps(path: string, options: VerifyOptions): Generator<void, VerifyReport> {
  let snapshot: Snapshot;
  try {
    snapshot = Snapshot.open(path, options);
  } catch (err) {
    const e = err as FormatError;
    return { buildId: null, shardsChecked: 0, bytesChecked: 0, problems: [{ file: e.file ?? path, code: e.code ?? 'E_IO', message: e.message }] };
  }
  const problems: VerifyProblem[] = [];
  let bytes = 0;
  try {
    try {
      yield* snapshot.manifestShard.verifySteps();
    } catch (err) {
      const e = err as FormatError;
      problems.push({ file: MANIFEST_FILE, code: e.code ?? 'E_IO', message: e.message });
    }
    const entries = snapshot.manifest.shards;
    let skipped = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (options.skip?.(entry, join(snapshot.dir, entry.file))) {
        skipped++;
        continue;
      }
      try {
        const shard = snapshot.shardAt(i);
        const digest = yield* shard.verifySteps();
        bytes += shard.file.size;
        if (digest !== entry.sha256) {
          problems.push({ file: entry.file, code: 'E_CHECKSUM', message: `SHA-256 ${digest} differs from the manifest's ${entry.sha256}` });
        }
      } catch (err) {
        const e = err as FormatError;
        problems.push({ file: entry.file, code: e.code ?? 'E_IO', message: e.message });
      }
    }
    return { buildId: snapshot.buildId, shardsChecked: entries.length + 1 - skipped, bytesChecked: bytes, shardsSkipped: skipped, problems };
  } finally {
    snapshot.close();
  }
}
