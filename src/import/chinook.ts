import { readFile } from 'node:fs/promises';
import { RawSink, type ImportSummary } from './raw-sink.js';

/** The tables of ChinookData.json this importer reads (the sales tables only feed popularity). */
interface ChinookData {
  Genre: { GenreId: number; Name: string }[];
  MediaType: { MediaTypeId: number; Name: string }[];
  Artist: { ArtistId: number; Name: string }[];
  Album: { AlbumId: number; Title: string; ArtistId: number }[];
  Track: { TrackId: number; Name: string; AlbumId: number | null; MediaTypeId: number; GenreId: number | null; Milliseconds: number; Bytes: number | null }[];
  InvoiceLine: { TrackId: number; Quantity: number }[];
  Playlist: { PlaylistId: number; Name: string }[];
  PlaylistTrack: { PlaylistId: number; TrackId: number }[];
}

/** Chinook media types as audio files: MIME type and codec. */
function fileFormat(mediaType: string): { mime: string; codec: string | null } {
  const name = mediaType.toLowerCase();
  if (name.includes('video')) return { mime: 'video/mp4', codec: null };
  if (name.includes('mpeg audio')) return { mime: 'audio/mpeg', codec: 'mp3' };
  if (name.includes('aac')) return { mime: 'audio/mp4', codec: 'aac' };
  return { mime: 'application/octet-stream', codec: null };
}

/**
 * Converts the Chinook sample database (ChinookData.json) to the raw format. Chinook has one
 * artist per album and no ISRC, UPC, dates or artwork; track order is TrackId order within an
 * album; popularity is the number of units sold (InvoiceLine), a real signal.
 */
export async function importChinook(jsonPath: string, outDir: string, options: { merge?: boolean } = {}): Promise<ImportSummary> {
  const data = JSON.parse(await readFile(jsonPath, 'utf8')) as ChinookData;
  for (const table of ['Genre', 'MediaType', 'Artist', 'Album', 'Track', 'Playlist', 'PlaylistTrack'] as const) {
    if (!Array.isArray(data[table])) throw new Error(`${jsonPath}: no ${table} table; is this ChinookData.json?`);
  }
  const sink = await RawSink.open(outDir, options.merge);
  try {
    const genre = new Map(data.Genre.map((g) => [g.GenreId, g.Name]));
    const mediaType = new Map(data.MediaType.map((m) => [m.MediaTypeId, m.Name]));
    const sold = new Map<number, number>();
    for (const line of data.InvoiceLine ?? []) sold.set(line.TrackId, (sold.get(line.TrackId) ?? 0) + line.Quantity);

    const tracksByAlbum = new Map<number, ChinookData['Track']>();
    for (const track of [...data.Track].sort((a, b) => a.TrackId - b.TrackId)) {
      if (track.AlbumId === null) continue;
      const list = tracksByAlbum.get(track.AlbumId) ?? [];
      list.push(track);
      tracksByAlbum.set(track.AlbumId, list);
    }
    const albumSales = (albumId: number) => (tracksByAlbum.get(albumId) ?? []).reduce((sum, t) => sum + (sold.get(t.TrackId) ?? 0), 0);
    const albumGenre = (albumId: number): string[] => {
      const counts = new Map<string, number>();
      for (const t of tracksByAlbum.get(albumId) ?? []) {
        const name = t.GenreId === null ? undefined : genre.get(t.GenreId);
        if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
      return best ? [best[0]] : [];
    };

    const artistSales = new Map<number, number>();
    for (const album of data.Album) artistSales.set(album.ArtistId, (artistSales.get(album.ArtistId) ?? 0) + albumSales(album.AlbumId));
    for (const artist of data.Artist) {
      sink.entity('artists', { id: String(artist.ArtistId), name: artist.Name, popularity: artistSales.get(artist.ArtistId) ?? 0 });
    }
    for (const album of data.Album) {
      const fresh = sink.entity('albums', {
        id: String(album.AlbumId),
        name: album.Title,
        genres: albumGenre(album.AlbumId),
        popularity: albumSales(album.AlbumId),
      });
      if (fresh) sink.link('album_artists', { album_id: String(album.AlbumId), artist_id: String(album.ArtistId), position: 1 });
    }
    for (const track of [...data.Track].sort((a, b) => a.TrackId - b.TrackId)) {
      sink.entity('songs', {
        id: String(track.TrackId),
        name: track.Name,
        duration_ms: track.Milliseconds,
        genres: track.GenreId === null ? [] : [genre.get(track.GenreId) ?? ''],
        popularity: sold.get(track.TrackId) ?? 0,
      });
    }
    for (const [albumId, tracks] of tracksByAlbum) {
      tracks.forEach((track, i) =>
        sink.link('album_tracks', { album_id: String(albumId), song_id: String(track.TrackId), disc_number: 1, track_number: i + 1 }),
      );
    }
    for (const track of [...data.Track].sort((a, b) => a.TrackId - b.TrackId)) {
      const format = fileFormat(mediaType.get(track.MediaTypeId) ?? '');
      const kbps = track.Bytes && track.Milliseconds > 0 ? Math.round((track.Bytes * 8) / track.Milliseconds) : null;
      sink.entity('files', {
        id: `chinook-${track.TrackId}`,
        song_id: String(track.TrackId),
        mime_type: format.mime,
        codec: format.codec,
        lossless: false,
        bitrate_kbps: kbps,
        size_bytes: track.Bytes,
        duration_ms: track.Milliseconds,
        preferred: true,
      });
    }
    const playlistIds = new Set<number>();
    for (const playlist of data.Playlist) {
      if (sink.entity('playlists', { id: `chinook-${playlist.PlaylistId}`, name: playlist.Name, curator_name: 'Chinook' }))
        playlistIds.add(playlist.PlaylistId);
    }
    const positions = new Map<number, number>();
    for (const row of data.PlaylistTrack) {
      if (!playlistIds.has(row.PlaylistId)) continue;
      const position = (positions.get(row.PlaylistId) ?? 0) + 1;
      positions.set(row.PlaylistId, position);
      sink.link('playlist_tracks', { playlist_id: `chinook-${row.PlaylistId}`, song_id: String(row.TrackId), position });
    }
    return await sink.close();
  } catch (err) {
    sink.abandon();
    throw err;
  }
}
