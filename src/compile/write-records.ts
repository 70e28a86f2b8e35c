import type { Packr } from 'msgpackr';
import { RecordTableWriter } from '../index-format/record-table.js';
import type { WrittenShard } from '../index-format/shard-writer.js';
import { RAW_FILE_BY_NAME, type RawFileName } from '../raw/schema.js';
import type { AdjacencyArrays } from './adjacency.js';
import type { CatalogIndex } from './catalog-index.js';
import type { DerivedCatalog } from './derive.js';
import { readRawFile, type IssueLog, type ParsedRow } from './raw-file.js';
import type { StationPlan } from './stations.js';

export interface RecordContext {
  readonly rawDir: string;
  readonly outDir: string;
  readonly buildId: string;
  readonly packr: Packr;
  readonly log: IssueLog;
  readonly index: CatalogIndex;
  readonly derived: DerivedCatalog;
  readonly stations: StationPlan;
  readonly onRow?: () => void;
}

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const isoDate = (ms: number): string | null => (Number.isNaN(ms) ? null : new Date(ms).toISOString());

/** "A", "A & B", "A, B & C". */
export function joinArtistNames(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return names[0];
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`;
}

function targetsOf(adj: AdjacencyArrays, i: number): Uint32Array {
  return adj.targets.subarray(adj.offsets[i], adj.offsets[i + 1]);
}

/**
 * The second pass: reads each entity file again, row by row, and writes its records in ordinal
 * order with everything the interfaces show, derived fields included. Memory stays flat: one
 * row at a time plus the first pass's columns.
 */
export async function writeRecordTables(ctx: RecordContext): Promise<WrittenShard[]> {
  const { index, derived } = ctx;
  const shards: WrittenShard[] = [];
  const rel = (name: string) => derived.relations.get(name)!;
  const genreNames = (ids: readonly number[] | undefined) => (ids ?? []).map((g) => index.genreNames[g]);
  const artistNamesOf = (adj: AdjacencyArrays, i: number) => [...targetsOf(adj, i)].map((a) => index.artists.names[a]);

  const table = async (file: RawFileName, name: string, build: (row: ParsedRow, ordinal: number) => unknown) => {
    const writer = new RecordTableWriter(ctx.outDir, name, ctx.buildId, ctx.packr);
    let ordinal = 0;
    await readRawFile(ctx.rawDir, RAW_FILE_BY_NAME.get(file)!, ctx.log, (row) => {
      writer.add(build(row, ordinal++));
      ctx.onRow?.();
    }, { secondPass: true });
    shards.push(...writer.finish());
  };

  await table('artists', 'artists', (row, a) => {
    return {
      id: index.artists.ids[a],
      ommId: index.artists.ommIds[a],
      name: row.name,
      artworkUrl: str(row.artwork_url),
      genres: genreNames(derived.artistGenres[a]),
      popularity: index.artists.popularity[a],
      dateAdded: isoDate(index.artists.dateAdded[a]),
    };
  });

  const albumArtists = rel('album.artists');
  const albumTracks = rel('album.tracks');
  await table('albums', 'albums', (row, al) => {
    const artistNames = artistNamesOf(albumArtists, al);
    return {
      id: index.albums.ids[al],
      ommId: index.albums.ommIds[al],
      name: row.name,
      upc: str(row.upc),
      label: str(row.label),
      releaseDate: str(row.release_date),
      artworkUrl: str(row.artwork_url),
      genres: genreNames(index.albums.genres[al]),
      popularity: index.albums.popularity[al],
      dateAdded: isoDate(index.albums.dateAdded[al]),
      trackCount: albumTracks.offsets[al + 1] - albumTracks.offsets[al],
      artistName: joinArtistNames(artistNames),
      artistNames,
    };
  });

  const songArtists = rel('song.artists');
  const songLyrics = rel('song.lyrics');
  await table('songs', 'songs', (row, s) => {
    const artistNames = artistNamesOf(songArtists, s);
    const trackRow = index.songPrimaryTrackRow[s];
    const album = trackRow >= 0 ? index.albumTracks.owners[trackRow] : -1;
    return {
      id: index.songs.ids[s],
      ommId: index.songs.ommIds[s],
      name: row.name,
      isrc: str(row.isrc),
      durationMs: int(row.duration_ms),
      genres: genreNames(derived.songGenres[s]),
      releaseDate: orNull(derived.songReleaseDate[s]),
      artworkUrl: str(row.artwork_url) ?? (album >= 0 ? orNull(index.albums.artworkUrl[album]) : null),
      popularity: index.songs.popularity[s],
      dateAdded: isoDate(index.songs.dateAdded[s]),
      albumId: album >= 0 ? index.albums.ids[album] : null,
      albumName: album >= 0 ? index.albums.names[album] : null,
      trackNumber: trackRow >= 0 ? index.albumTrackNumber[trackRow] : null,
      discNumber: trackRow >= 0 ? index.albumTrackDisc[trackRow] : null,
      artistName: joinArtistNames(artistNames),
      artistNames,
      lyricsLanguages: [...targetsOf(songLyrics, s)].map((l) => index.lyricsLanguages[l]),
    };
  });

  const songDuration = (songId: string): number | null => {
    const s = index.songs.byId.get(songId);
    const ms = s === undefined ? Number.NaN : index.songDuration[s];
    return Number.isNaN(ms) ? null : ms;
  };
  await table('files', 'files', (row) => ({
    id: row.id,
    songId: row.song_id,
    mimeType: row.mime_type,
    codec: str(row.codec),
    lossless: row.lossless === true,
    bitrateKbps: int(row.bitrate_kbps),
    sampleRateHz: int(row.sample_rate_hz),
    channels: int(row.channels),
    sizeBytes: int(row.size_bytes),
    durationMs: int(row.duration_ms) ?? songDuration(row.song_id as string),
    streamUrl: str(row.stream_url),
    downloadUrl: str(row.download_url),
    preferred: row.preferred === true,
  }));

  await table('lyrics', 'lyrics', (row) => ({
    songId: row.song_id,
    language: row.language,
    text: row.text,
    ttml: str(row.ttml),
  }));

  const playlistTracks = rel('playlist.tracks');
  await table('playlists', 'playlists', (row, p) => {
    return {
      id: index.playlists.ids[p],
      name: row.name,
      curatorName: str(row.curator_name),
      description: str(row.description),
      artworkUrl: str(row.artwork_url),
      genres: genreNames(index.playlists.genres[p]),
      popularity: index.playlists.popularity[p],
      dateAdded: isoDate(index.playlists.dateAdded[p]),
      trackCount: playlistTracks.offsets[p + 1] - playlistTracks.offsets[p],
    };
  });

  // Stations: custom ones carry their raw description and artwork; derived ones are built here.
  const customRows: ParsedRow[] = [];
  await readRawFile(ctx.rawDir, RAW_FILE_BY_NAME.get('stations')!, ctx.log, (row) => void customRows.push(row), { secondPass: true });
  const stations = new RecordTableWriter(ctx.outDir, 'stations', ctx.buildId, ctx.packr);
  const plan = ctx.stations;
  plan.ids.forEach((id, st) => {
    const custom = plan.customOrdinal[st] >= 0 ? customRows[plan.customOrdinal[st]] : undefined;
    stations.add({
      id,
      name: plan.names[st],
      description: custom ? str(custom.description) : null,
      artworkUrl: custom ? str(custom.artwork_url) : null,
      seed: plan.seeds[st],
      trackCount: plan.offsets[st + 1] - plan.offsets[st],
    });
  });
  shards.push(...stations.finish());

  const genres = new RecordTableWriter(ctx.outDir, 'genres', ctx.buildId, ctx.packr);
  const genreSongs = rel('genre.songs');
  index.genreNames.forEach((name, g) => {
    genres.add({ name, stationId: plan.ids[plan.genreStation[g]], songCount: genreSongs.offsets[g + 1] - genreSongs.offsets[g] });
  });
  shards.push(...genres.finish());
  return shards;
}
