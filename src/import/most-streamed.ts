import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseString } from 'fast-csv';
import { normalizeIsrc } from '../raw/codes.js';
import { RawSink, type ImportSummary } from './raw-sink.js';

const REQUIRED = ['Track', 'Album Name', 'Artist', 'Release Date', 'ISRC', 'Spotify Popularity', 'Spotify Streams'] as const;

/**
 * The file's text: UTF-8 when it is valid UTF-8 (a BOM dropped), otherwise Windows-1252, the
 * code page spreadsheet exports of this kind use. Returns which one it was.
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/**
 * Mojibake the source carries (measured in its SOURCE.md): UTF-8 U+FFFD bytes read as
 * Windows-1252 (`ï¿½`, or `ï¿` cut short at the end of a cell) are put back as U+FFFD, so a
 * damaged character is one replacement character, not three letters that look like text.
 */
export function repairReplacementBytes(text: string): string {
  return text.replace(/ï¿½|ï¿(?=[,"\r\n]|$)/g, '\ufffd');
}

/** True when a name lost characters in the source (replacement characters or runs of `ý`). */
export function isDamaged(name: string): boolean {
  return name.includes('\ufffd') || /ýý/.test(name);
}

const stableId = (prefix: string, key: string): string => `${prefix}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
const digits = (text: string | undefined): number | null => {
  const t = (text ?? '').replace(/,/g, '').trim();
  return /^[0-9]+$/.test(t) ? Number(t) : null;
};

/** `M/D/YYYY` -> `YYYY-MM-DD`, or null. */
export function usDate(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`;
}

/**
 * Imports the "Most Streamed Spotify Songs 2024" table: one song per row with its ISRC, one
 * album per (album name, artist), the display artist as one credited artist (the column is
 * free text such as "A & B" or "Tyler, The Creator", which cannot be split safely), popularity
 * from Spotify popularity (streams as a fallback), release dates from M/D/YYYY. Rows repeating
 * an ISRC are left out with a warning.
 */
export async function importMostStreamed(path: string, outDir: string, options: { merge?: boolean } = {}): Promise<ImportSummary & { encoding: string }> {
  const file = basename(path);
  const { text, encoding } = decodeText(readFileSync(path));
  const sink = await RawSink.open(outDir, options.merge);
  try {
    const rows: Record<string, string>[] = await new Promise((resolve, reject) => {
      const out: Record<string, string>[] = [];
      parseString(repairReplacementBytes(text), { headers: true, ignoreEmpty: true, trim: false })
        .on('error', reject)
        .on('headers', (headers: string[]) => {
          const missing = REQUIRED.filter((c) => !headers.includes(c));
          if (missing.length > 0) reject(new Error(`${file}: not the Most Streamed Spotify Songs table (missing ${missing.join(', ')})`));
        })
        .on('data', (row: Record<string, string>) => out.push(row))
        .on('end', () => resolve(out));
    });
    const seenIsrc = new Set<string>();
    const albumTracks = new Map<string, number>();
    rows.forEach((row, i) => {
      const line = i + 2;
      const title = row.Track.trim();
      const artist = row.Artist.trim();
      const isrc = normalizeIsrc(row.ISRC);
      if (!title || !artist || !isrc) {
        sink.warn(`${file}:${line}: ${!title ? 'no title' : !artist ? 'no artist' : `ISRC ${JSON.stringify(row.ISRC)} is not valid`}; left out`);
        return;
      }
      if (seenIsrc.has(isrc)) {
        sink.warn(`${file}:${line}: ISRC ${isrc} repeats an earlier row; left out`);
        return;
      }
      seenIsrc.add(isrc);
      const artistId = stableId('ms-artist', artist.normalize('NFKC').toLowerCase());
      sink.entity('artists', { id: artistId, name: artist });
      const albumName = row['Album Name'].trim() || title;
      const albumId = stableId('ms-album', `${albumName}\u0000${artist}`);
      const releaseDate = usDate(row['Release Date']);
      if (sink.entity('albums', { id: albumId, name: albumName, release_date: releaseDate }))
        sink.link('album_artists', { album_id: albumId, artist_id: artistId, position: 1 });
      const popularity = digits(row['Spotify Popularity']) ?? Math.min(100, Math.round(Math.log10((digits(row['Spotify Streams']) ?? 0) + 1) * 10));
      const songId = `ms-${isrc}`;
      if (sink.entity('songs', { id: songId, name: title, isrc, release_date: releaseDate, popularity })) {
        sink.link('song_artists', { song_id: songId, artist_id: artistId, position: 1 });
        const track = (albumTracks.get(albumId) ?? 0) + 1;
        albumTracks.set(albumId, track);
        sink.link('album_tracks', { album_id: albumId, song_id: songId, disc_number: 1, track_number: track });
      }
    });
    return { ...(await sink.close()), encoding };
  } catch (err) {
    sink.abandon();
    throw err;
  }
}
