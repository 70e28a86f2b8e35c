import { FormatError } from './errors.js';
import { Snapshot, type OpenSnapshotOptions } from './snapshot.js';

export interface VerifyProblem {
  readonly file: string;
  readonly code: string;
  readonly message: string;
}

export interface VerifyReport {
  readonly buildId: string | null;
  readonly shardsChecked: number;
  readonly bytesChecked: number;
  readonly problems: VerifyProblem[];
}

/**
 * Recomputes every page CRC and every shard's SHA-256 against the manifest. Reports all
 * problems rather than stopping at the first.
 */
export function verifySnapshot(path: string, options: OpenSnapshotOptions = {}): VerifyReport {
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
    snapshot.manifestShard.verifyAll();
    for (const { entry, shard } of snapshot.listShards()) {
      try {
        const digest = shard.verifyAll();
        bytes += shard.file.size;
        if (digest !== entry.sha256) {
          problems.push({ file: entry.file, code: 'E_CHECKSUM', message: `SHA-256 ${digest} differs from the manifest's ${entry.sha256}` });
        }
      } catch (err) {
        const e = err as FormatError;
        problems.push({ file: entry.file, code: e.code ?? 'E_IO', message: e.message });
      }
    }
    return { buildId: snapshot.buildId, shardsChecked: snapshot.listShards().length + 1, bytesChecked: bytes, problems };
  } finally {
    snapshot.close();
  }
}
