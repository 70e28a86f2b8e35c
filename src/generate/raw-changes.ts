import { ChangeJournalWriter, type ChangeLine } from '../raw/change-journal.js';
import type { RawTables } from './daily-changes.js';

/** The rows that make each type's resource what it is: its own row, and the link rows keyed by its id. */
const PARTS: Record<ChangeLine['type'], [file: string, column: string][]> = {
  album: [
    ['albums', 'id'],
    ['album_artists', 'album_id'],
    ['album_tracks', 'album_id'],
  ],
  song: [
    ['songs', 'id'],
    ['song_artists', 'song_id'],
    ['album_tracks', 'song_id'],
    ['files', 'song_id'],
    ['lyrics', 'song_id'],
  ],
  artist: [['artists', 'id']],
};

/**
 * What changed between two raw catalogs, as `omm import --into` journals a delivery
 * (raw/change-journal.ts): albums, songs and artists added, taken out, or whose row or link rows
 * differ. For generated catalogs changed in memory (daily-changes.ts, the segments' tests).
 */
export function rawChanges(before: RawTables, after: RawTables): ChangeLine[] {
  const lines: ChangeLine[] = [];
  for (const type of ['album', 'song', 'artist'] as const) {
    const was = signatures(before, type);
    const is = signatures(after, type);
    for (const [id, signature] of is) {
      const old = was.get(id);
      if (old === undefined) lines.push({ type, id, change: 'added' });
      else if (old !== signature) lines.push({ type, id, change: 'updated' });
    }
    for (const id of was.keys()) if (!is.has(id)) lines.push({ type, id, change: 'removed' });
  }
  return lines;
}

/** Per id of a type, its rows as one string. */
function signatures(tables: RawTables, type: ChangeLine['type']): Map<string, string> {
  const [[own, idColumn], ...links] = PARTS[type];
  const out = new Map<string, string>();
  for (const row of tables.rows.get(own) ?? []) out.set(row[idColumn], JSON.stringify(row));
  for (const [file, column] of links) {
    for (const row of tables.rows.get(file) ?? []) {
      const id = row[column];
      if (out.has(id)) out.set(id, `${out.get(id)}\n${file}:${JSON.stringify(row)}`);
    }
  }
  return out;
}

/** Writes `lines` as the journal's next file in `rawDir`, after `previousDir`'s journal (linked in). */
export function writeJournal(rawDir: string, previousDir: string, lines: readonly ChangeLine[]): void {
  const writer = new ChangeJournalWriter(rawDir, previousDir);
  for (const line of lines) writer.note(line.type, line.id, line.change);
  writer.finish();
}
