import { type ChangedLinks, namesChanged } from './closure.js';
import type { DeltaChanges } from './delta-changes.js';
import { scanRawKeyed } from './fast-rows.js';
import type { OwnerRows } from './owner-rows.js';
import { scanRawFile, type RawRow } from './raw-rows.js';

/** The changed artists' names in the raw catalog. */
async function changedArtistNames(rawDir: string, changes: DeltaChanges, byOwner: OwnerRows): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const changed = changes.changed.artist;
  if (changed.size === 0) return names;
  if (byOwner.holds('artists')) {
    byOwner.read('artists', changed.keys(), ['id', 'name'], ([id, name]) => names.set(id, name.trim()));
    return names;
  }
  await scanRawFile(rawDir, 'artists', (row) => {
    if (changed.has(row.id)) names.set(row.id, row.name.trim());
  });
  return names;
}

const LINK_FILES = [
  ['album_tracks', ['album_id', 'song_id'], 'albumTracks', 'album'],
  ['album_artists', ['album_id', 'artist_id'], 'albumArtists', 'album'],
  ['song_artists', ['song_id', 'artist_id'], 'songArtists', 'song'],
] as const;

/**
 * The raw link rows naming a changed album, song or artist (their two id columns). Where the
 * link files are still as a streamed import wrote them, only the rows their changed owners hold
 * (an album's tracks and credits, a song's credits): there a link row changes only with its owner,
 * so the rows of the others are those the snapshot in service lists (`byOwner`, closure.ts).
 */
export async function changedLinks(rawDir: string, changes: DeltaChanges, byOwner: OwnerRows): Promise<ChangedLinks> {
  const artistNames = await changedArtistNames(rawDir, changes, byOwner);
  const owned = LINK_FILES.every(([file]) => byOwner.holds(file));
  const links: ChangedLinks = { albumTracks: [], albumArtists: [], songArtists: [], artistNames, byOwner: owned };
  for (const [file, columns, list, owner] of LINK_FILES) {
    const rows = links[list];
    if (owned) {
      byOwner.read(file, changes.changed[owner].keys(), columns, (keys) => rows.push({ [columns[0]]: keys[0], [columns[1]]: keys[1] }));
      continue;
    }
    await scanRawKeyed(
      rawDir,
      file,
      columns,
      (keys) => {
        const row: RawRow = { [columns[0]]: keys[0], [columns[1]]: keys[1] };
        if (namesChanged(changes, file, row)) rows.push(row);
      },
      () => {
        rows.length = 0;
      },
    );
  }
  return links;
}
