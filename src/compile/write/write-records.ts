import { RecordTableWriter } from '../../index-format/tables/record-table-writer.js';
import type { WrittenShard } from '../../index-format/shards/shard-writer.js';
import { RAW_FILE_BY_NAME, type RawFileName } from '../../raw/schema.js';
import { readRawFile, type ParsedRow } from '../raw-file.js';
import { targetsOf, type AdjacencyArrays } from '../relations/adjacency-files.js';
import { mapOrdinals } from '../../catalog/ordinal-slice.js';
import type { BuildContext } from './build-context.js';
import { orNull, str } from './cell-values.js';
import { isoDate } from './iso-date.js';

/** "A", "A & B", "A, B & C". */
export function joinArtistNames(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return names[0];
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`;
}

/**
 * Writes every entity's records in ordinal order with everything the interfaces show, derived
 * fields included, looked up in mapped columns. Artists come from the first pass's columns alone;
 * albums, playlists and stations read their CSV again, row by row, for the text only they show
 * (labels, descriptions). Memory stays flat: one row at a time. Songs are written on a worker
 * meanwhile (song-records.ts; their shards are listed between these two groups), files and
 * lyrics by the first pass (edge-record-rows.ts).
 */
export async function writeRecordTables(ctx: BuildContext): Promise<{ beforeSongs: WrittenShard[]; afterSongs: WrittenShard[] }> {
  const { albums, artists, playlists } = ctx;
  const shards: WrittenShard[] = [];
  const rel = (name: string) => ctx.relations.get(name)!;
  const genreNames = (ids: ArrayLike<number>) => mapOrdinals(ids, ids.length, (g) => ctx.genres[g]);
  const artistNamesOf = (adj: AdjacencyArrays, i: number) => {
    const targets = targetsOf(adj, i);
    return mapOrdinals(targets, targets.length, (a) => artists.names.get(a));
  };

  const table = async (file: RawFileName, name: string, build: (row: ParsedRow, ordinal: number) => unknown) => {
    const writer = new RecordTableWriter(ctx.outDir, name, ctx.buildId, ctx.packr);
    let ordinal = 0;
    await readRawFile(
      ctx.rawDir,
      RAW_FILE_BY_NAME.get(file)!,
      ctx.log,
      (row) => {
        writer.add(build(row, ordinal++));
        ctx.onRow?.();
      },
      { secondPass: true },
    );
    shards.push(...writer.finish());
  };
  /** A table whose every field the first pass kept in columns: no second read of its CSV. */
  const fromColumns = (name: string, count: number, build: (ordinal: number) => unknown) => {
    const writer = new RecordTableWriter(ctx.outDir, name, ctx.buildId, ctx.packr);
    for (let ordinal = 0; ordinal < count; ordinal++) {
      writer.add(build(ordinal));
      ctx.onRow?.();
    }
    shards.push(...writer.finish());
  };

  fromColumns('artists', artists.count, (a) => ({
    id: artists.ids.get(a),
    ommId: artists.ommIds.get(a),
    name: artists.names.get(a),
    artworkUrl: orNull(artists.artwork.get(a)),
    genres: genreNames(ctx.artistGenres.get(a)),
    popularity: artists.popularity[a],
    dateAdded: isoDate(artists.dateAdded[a]),
  }));

  const albumArtists = rel('album.artists');
  const albumTracks = rel('album.tracks');
  await table('albums', 'albums', (row, al) => {
    const artistNames = artistNamesOf(albumArtists, al);
    return {
      id: albums.ids.get(al),
      ommId: albums.ommIds.get(al),
      name: row.name,
      upc: str(row.upc),
      label: str(row.label),
      releaseDate: str(row.release_date),
      artworkUrl: str(row.artwork_url),
      genres: genreNames(albums.genres.get(al)),
      popularity: albums.popularity[al],
      dateAdded: isoDate(albums.dateAdded[al]),
      trackCount: albumTracks.offsets[al + 1] - albumTracks.offsets[al],
      artistName: str(row.artist_name) ?? joinArtistNames(artistNames),
      artistNames,
    };
  });

  const beforeSongs = shards.splice(0);
  const playlistTracks = rel('playlist.tracks');
  await table('playlists', 'playlists', (row, p) => ({
    id: playlists.ids.get(p),
    name: row.name,
    curatorName: str(row.curator_name),
    description: str(row.description),
    artworkUrl: str(row.artwork_url),
    genres: genreNames(playlists.genres.get(p)),
    popularity: playlists.popularity[p],
    dateAdded: isoDate(playlists.dateAdded[p]),
    trackCount: playlistTracks.offsets[p + 1] - playlistTracks.offsets[p],
  }));

  shards.push(...(await writeStationRecords(ctx)));

  const genres = new RecordTableWriter(ctx.outDir, 'genres', ctx.buildId, ctx.packr);
  const genreSongs = rel('genre.songs');
  ctx.genres.forEach((name, g) => {
    genres.add({ name, stationId: ctx.stations.id(ctx.stations.genreStation(g)), songCount: genreSongs.offsets[g + 1] - genreSongs.offsets[g] });
  });
  shards.push(...genres.finish());
  return { beforeSongs, afterSongs: shards };
}

/** Stations: custom ones carry their raw description and artwork (read again, in order); derived ones are built here. */
async function writeStationRecords(ctx: BuildContext): Promise<WrittenShard[]> {
  const plan = ctx.stations;
  const tracks = ctx.relations.get('station.tracks')!;
  const writer = new RecordTableWriter(ctx.outDir, 'stations', ctx.buildId, ctx.packr);
  const add = (st: number, custom: ParsedRow | null) =>
    writer.add({
      id: plan.id(st),
      name: plan.name(st),
      description: custom ? str(custom.description) : null,
      artworkUrl: custom ? str(custom.artwork_url) : null,
      seed: plan.seed(st),
      trackCount: tracks.offsets[st + 1] - tracks.offsets[st],
    });
  let st = 0;
  await readRawFile(ctx.rawDir, RAW_FILE_BY_NAME.get('stations')!, ctx.log, (row) => add(st++, row), { secondPass: true });
  for (; st < plan.count; st++) add(st, null);
  return writer.finish();
}
