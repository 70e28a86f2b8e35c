import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { streamCsvRowsLenient } from './fast-csv-rows.js';
import { isValidCalendarDate } from '../raw/validate-cell.js';
import { normalizeIsrc } from '../raw/codes.js';
import { RawSink, type ImportSummary } from './raw-sink.js';

/** The Exportify columns this importer reads; `Genres` and `Record Label` are optional (newer layout). */
const REQUIRED = [
  'Track URI',
  'Track Name',
  'Artist URI(s)',
  'Artist Name(s)',
  'Album URI',
  'Album Name',
  'Album Artist URI(s)',
  'Album Artist Name(s)',
  'Album Release Date',
  'Album Image URL',
  'Disc Number',
  'Track Number',
  'Track Duration (ms)',
  'Track Preview URL',
  'Popularity',
  'ISRC',
  'Added At',
] as const;

/** `spotify:track:4uLU6hMCjMI75M1A2tKUQC` -> `4uLU6hMCjMI75M1A2tKUQC`, or null for local files and blanks. */
export function spotifyId(uri: string): string | null {
  const m = /^spotify:(?:track|album|artist):([A-Za-z0-9]{1,64})$/.exec(uri.trim());
  return m ? m[1] : null;
}

/** Splits Exportify's multi-value name cell: ", " separates, "\," is a comma inside a name. */
export function splitNames(cell: string): string[] {
  const names: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const ch = cell[i];
    if (ch === '\\' && cell[i + 1] === ',') {
      current += ',';
      i++;
    } else if (ch === ',') {
      names.push(current.trim());
      current = '';
    } else current += ch;
  }
  names.push(current.trim());
  return names.filter((n) => n.length > 0);
}

const splitUris = (cell: string): string[] =>
  cell
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u.length > 0);

function credits(uris: string, names: string): { id: string; name: string }[] {
  const ids = splitUris(uris).map(spotifyId);
  const labels = splitNames(names);
  return ids.flatMap((id, i) => (id ? [{ id, name: labels[i] ?? labels[labels.length - 1] ?? id }] : []));
}

/** A stable, valid playlist id for an export file: `exportify-` and 12 hex digits of its name's hash. */
export function playlistIdFor(path: string): string {
  return `exportify-${createHash('sha256').update(basename(path)).digest('hex').slice(0, 12)}`;
}

const int = (text: string | undefined): number | null => (text && /^[0-9]+$/.test(text.trim()) ? Number(text.trim()) : null);

/**
 * Converts Exportify CSV exports (one per playlist) to the raw format: songs with ISRCs,
 * multi-artist credits in order, albums with artwork, release dates at the precision Spotify
 * gives, disc and track numbers, and each file as a playlist in row order. Spotify ids are kept
 * as local ids, so exports of overlapping playlists merge cleanly.
 */
export async function importExportify(csvPaths: string[], outDir: string, options: { merge?: boolean } = {}): Promise<ImportSummary> {
  const sink = await RawSink.open(outDir, options.merge);
  try {
    const trackSlots = new Set<string>();
    for (const path of csvPaths) {
      await importExport(sink, path, trackSlots);
    }
    return await sink.close();
  } catch (err) {
    sink.abandon();
    throw err;
  }
}

/** One Exportify export, a delivery unit of its own: its playlist, tracks, songs, albums and artists. */
async function importExport(sink: RawSink, path: string, trackSlots: Set<string>): Promise<void> {
  // Each export is a delivery unit: a playlist exported again replaces its tracks.
  sink.beginUnit();
  const file = basename(path);
  const playlistName = file.replace(/\.csv$/i, '');
  const playlistId = playlistIdFor(path);
  const writePlaylist = sink.entity('playlists', { id: playlistId, name: playlistName, description: `Imported from the Exportify export ${file}` });
  let header: string[] = [];
  let position = 0;
  await streamCsvRowsLenient(path, ({ line, cells }) => {
    if (line === 1) {
      header = cells.map((c) => c.trim());
      const missing = REQUIRED.filter((c) => !header.includes(c));
      if (missing.length > 0) throw new Error(`${file}: not an Exportify export (missing ${missing.join(', ')})`);
      return;
    }
    const row = Object.fromEntries(header.map((name, i) => [name, cells[i] ?? '']));
    const songId = spotifyId(row['Track URI']);
    const albumId = spotifyId(row['Album URI']);
    if (!songId || !albumId) {
      sink.warn(`${file}:${line}: no Spotify track or album id (a local file?); left out`);
      return;
    }
    if (!row['Track Name'].trim() || !row['Album Name'].trim()) {
      sink.warn(`${file}:${line}: track ${songId} has no title or album title (unavailable on Spotify?); left out`);
      return;
    }
    const songArtists = credits(row['Artist URI(s)'], row['Artist Name(s)']);
    const albumArtists = credits(row['Album Artist URI(s)'], row['Album Artist Name(s)']);
    for (const artist of [...albumArtists, ...songArtists]) sink.entity('artists', { id: artist.id, name: artist.name });
    const releaseDate = row['Album Release Date'].trim();
    const validDate = isValidCalendarDate(releaseDate) ? releaseDate : null;
    if (releaseDate && !validDate) sink.warn(`${file}:${line}: release date ${JSON.stringify(releaseDate)} is not a date; left out`);
    const genres = (row.Genres ?? '')
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    const artwork = /^https?:\/\//.test(row['Album Image URL']) ? row['Album Image URL'] : null;
    if (
      sink.entity('albums', {
        id: albumId,
        name: row['Album Name'],
        release_date: validDate,
        artwork_url: artwork,
        label: row['Record Label']?.trim() || null,
      })
    ) {
      albumArtists.forEach((artist, i) => sink.link('album_artists', { album_id: albumId, artist_id: artist.id, position: i + 1 }));
    }
    const isrc = row.ISRC.trim() ? normalizeIsrc(row.ISRC) : null;
    if (row.ISRC.trim() && !isrc) sink.warn(`${file}:${line}: ISRC ${JSON.stringify(row.ISRC)} is not valid; left out`);
    const addedAt = row['Added At'].trim();
    if (
      sink.entity('songs', {
        id: songId,
        name: row['Track Name'],
        isrc,
        duration_ms: int(row['Track Duration (ms)']),
        genres,
        popularity: int(row.Popularity),
        date_added: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(addedAt) ? addedAt : null,
      })
    ) {
      songArtists.forEach((artist, i) => sink.link('song_artists', { song_id: songId, artist_id: artist.id, position: i + 1 }));
      const disc = int(row['Disc Number']) ?? 1;
      const track = int(row['Track Number']);
      const slot = `${albumId}:${disc}:${track}`;
      if (track !== null && !trackSlots.has(slot)) {
        trackSlots.add(slot);
        sink.link('album_tracks', { album_id: albumId, song_id: songId, disc_number: disc, track_number: track });
      }
      const preview = row['Track Preview URL'].trim();
      if (/^https?:\/\//.test(preview)) {
        // Spotify previews are 30-second MP3 clips: kept as a lossy stream so clients can play something.
        sink.entity('files', {
          id: `preview-${songId}`,
          song_id: songId,
          mime_type: 'audio/mpeg',
          codec: 'mp3',
          lossless: false,
          duration_ms: 30000,
          stream_url: preview,
          preferred: true,
        });
      }
    }
    if (writePlaylist) sink.link('playlist_tracks', { playlist_id: playlistId, song_id: songId, position: ++position });
  });
}
