import { changesAfter, journalPosition, type Change, type ChangedType } from '../../raw/change-journal.js';

/** What the deliveries applied since a snapshot was compiled changed, per type: id -> its last change. */
export interface DeltaChanges {
  readonly position: number;
  readonly changed: Readonly<Record<ChangedType, ReadonlyMap<string, Change>>>;
}

/**
 * The changes the raw catalog's journal (raw/change-journal.ts) records after `compiledAt`, the
 * position the snapshot in service was compiled at. A raw catalog without a journal, or one whose
 * journal stops before that position (another catalog), cannot be compiled as a delta:
 * E_DELTA_JOURNAL says why. A snapshot compiled before the journal's first delivery records no
 * position: it is at 0.
 */
export function deltaChanges(rawDir: string, compiledAt: number | undefined): DeltaChanges {
  const position = journalPosition(rawDir);
  if (position === 0) fail(`${rawDir} has no change journal (raw/.omm-changes): apply deliveries with omm import --into, or compile in full`);
  // A snapshot compiled before the first delivery was journaled (no `changes`) is at position 0.
  const from = compiledAt ?? 0;
  if (from > position) fail(`the snapshot in service was compiled at journal position ${from}, past ${rawDir}'s last (${position}): is this its raw catalog?`);
  const changed = { album: new Map<string, Change>(), song: new Map<string, Change>(), artist: new Map<string, Change>() };
  for (const line of changesAfter(rawDir, from)) {
    const byId = changed[line.type];
    if (!byId) fail(`journal ${String(line.sequence).padStart(6, '0')}.jsonl names an unknown type ${JSON.stringify(line.type)}`);
    byId.set(String(line.id), line.change);
  }
  return { position, changed };
}

/** A delta compile that cannot be made from this raw catalog and snapshot: nothing is published. */
export class DeltaCompileError extends Error {
  constructor(
    readonly code: 'E_DELTA_JOURNAL' | 'E_DELTA_INPUT',
    message: string,
  ) {
    super(`${message} [${code}]`);
    this.name = 'DeltaCompileError';
  }
}

function fail(message: string): never {
  throw new DeltaCompileError('E_DELTA_JOURNAL', message);
}
