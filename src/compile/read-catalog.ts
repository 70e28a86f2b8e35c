import { RAW_FILE_BY_NAME, type RawFileName } from '../raw/schema.js';
import { deriveOmmId, type CatalogType } from '../catalog/catalog-ids.js';
import { CatalogIndex, EntityColumns, type ExploreGroupRow } from './catalog-index.js';
import type { RawIssue } from './compile-error.js';
import { readRawFile, type IssueLog, type ParsedRow, type RawFileRead } from './raw-file.js';
import { releaseDateKey } from './sort-keys.js';

type Problem = Omit<RawIssue, 'file' | 'line'>;

export interface FirstPassResult {
  readonly index: CatalogIndex;
  readonly files: Map<RawFileName, RawFileRead>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
const NO_POSITION = Number.MAX_SAFE_INTEGER;
/** Two ordinals as one number (a Set of numbers costs far less than one of strings). */
const pairKey = (a: number, b: number): number => a * 0x4000000 + b;
const isProblem = (v: Problem | number): v is Problem => typeof v !== 'number';

/**
 * The first pass: reads every raw file once, in dependency order, validates each row, and keeps
 * the columns the indexes need. Rows that break a rule are rejected through the issue log with
 * file, line and column. One phase per group of files; each phase's duplicate checks are dropped
 * when it ends.
 */
export async function readCatalog(dir: string, log: IssueLog, onRow?: () => void): Promise<FirstPassResult> {
  const pass = new FirstPass(dir, log, onRow);
  await readArtistsAndAlbums(pass);
  await readSongs(pass);
  await readAlbumTracks(pass);
  await readFilesAndLyrics(pass);
  await readPlaylistsAndStations(pass);
  await readExploreFeed(pass);
  return { index: pass.index, files: pass.files };
}

/** What every phase shares: the index being filled, the files read so far, and the row rules for entities and references. */
class FirstPass {
  readonly index = new CatalogIndex();
  readonly files = new Map<RawFileName, RawFileRead>();
  private readonly ommSeen = { artist: new Map<string, number>(), album: new Map<string, number>(), song: new Map<string, number>() };

  constructor(
    private readonly dir: string,
    private readonly log: IssueLog,
    private readonly onRow: (() => void) | undefined,
  ) {}

  async read(name: RawFileName, handler: (row: ParsedRow, line: number) => Problem | void): Promise<void> {
    this.files.set(name, await readRawFile(this.dir, RAW_FILE_BY_NAME.get(name)!, this.log, handler, { onProgress: this.onRow }));
  }

  /** Adds an entity row (a unique id, and for catalog types a unique catalog id): its ordinal, or the problem. */
  entity(cols: EntityColumns, type: CatalogType | null, row: ParsedRow, line: number): Problem | number {
    const index = this.index;
    const id = row.id as string;
    const existing = cols.byId.get(id);
    if (existing !== undefined) {
      return { code: 'E_RAW_DUPLICATE', column: 'id', message: `id ${JSON.stringify(id)} is already used on line ${cols.lines[existing]}` };
    }
    let ommId = '';
    if (type) {
      ommId = str(row.omm_id) ?? deriveOmmId(type, id);
      const clash = this.ommSeen[type].get(ommId);
      if (clash !== undefined) {
        return { code: 'E_RAW_DUPLICATE', column: 'omm_id', message: `catalog id omm:${type}:${ommId} is already used on line ${cols.lines[clash]}` };
      }
    }
    const ordinal = cols.ids.length;
    if (type) this.ommSeen[type].set(ommId, ordinal);
    cols.ids.push(id);
    cols.byId.set(id, ordinal);
    cols.lines.push(line);
    cols.names.push(row.name as string);
    cols.ommIds.push(ommId);
    cols.popularity.push(num(row.popularity, 0));
    cols.dateAdded.push(num(row.date_added, Number.NaN));
    cols.releaseDateText.push(str(row.release_date));
    cols.releaseDate.push(releaseDateKey(str(row.release_date)));
    cols.genres.push(index.genreIds(row.genres as string[] | undefined));
    cols.artworkUrl.push(str(row.artwork_url));
    return ordinal;
  }

  /** The ordinal a reference column points at, or the problem. */
  refTo(cols: EntityColumns, file: string, column: string, row: ParsedRow): Problem | number {
    const id = row[column] as string;
    const ordinal = cols.byId.get(id);
    if (ordinal === undefined) {
      return { code: 'E_RAW_REF', column, message: `${JSON.stringify(id)} is not an id in ${file} (or its row was rejected)` };
    }
    return ordinal;
  }
}

/** artists.csv, albums.csv and album_artists.csv (each credit once per album). */
async function readArtistsAndAlbums(pass: FirstPass): Promise<void> {
  const { index } = pass;
  const creditPairs = new Set<number>();
  await pass.read('artists', (row, line) => {
    const r = pass.entity(index.artists, 'artist', row, line);
    if (isProblem(r)) return r;
  });
  await pass.read('albums', (row, line) => {
    const r = pass.entity(index.albums, 'album', row, line);
    if (isProblem(r)) return r;
    index.albumUpc.push(str(row.upc));
  });
  await pass.read('album_artists', (row) => {
    const album = pass.refTo(index.albums, 'albums.csv', 'album_id', row);
    if (isProblem(album)) return album;
    const artist = pass.refTo(index.artists, 'artists.csv', 'artist_id', row);
    if (isProblem(artist)) return artist;
    const pair = pairKey(album, artist);
    if (creditPairs.has(pair)) return { code: 'E_RAW_CONFLICT', column: 'artist_id', message: `artist ${row.artist_id} is credited twice on album ${row.album_id}` };
    creditPairs.add(pair);
    index.albumCredits.add(album, artist, num(row.position, NO_POSITION));
  });
}

/** songs.csv and song_artists.csv (each credit once per song). */
async function readSongs(pass: FirstPass): Promise<void> {
  const { index } = pass;
  const creditPairs = new Set<number>();
  await pass.read('songs', (row, line) => {
    const r = pass.entity(index.songs, 'song', row, line);
    if (isProblem(r)) return r;
    index.songIsrc.push(str(row.isrc));
    index.songDuration.push(num(row.duration_ms, Number.NaN));
    index.songPrimaryTrackRow.push(-1);
  });
  await pass.read('song_artists', (row) => {
    const song = pass.refTo(index.songs, 'songs.csv', 'song_id', row);
    if (isProblem(song)) return song;
    const artist = pass.refTo(index.artists, 'artists.csv', 'artist_id', row);
    if (isProblem(artist)) return artist;
    const pair = pairKey(song, artist);
    if (creditPairs.has(pair)) return { code: 'E_RAW_CONFLICT', column: 'artist_id', message: `artist ${row.artist_id} is credited twice on song ${row.song_id}` };
    creditPairs.add(pair);
    index.songCredits.add(song, artist, num(row.position, NO_POSITION));
  });
}

/** album_tracks.csv: each song once per album, each disc and track slot once; a song's first row names its primary album. */
async function readAlbumTracks(pass: FirstPass): Promise<void> {
  const { index } = pass;
  const trackPairs = new Set<number>();
  const trackSlots = new Map<number, number>();
  await pass.read('album_tracks', (row) => {
    const album = pass.refTo(index.albums, 'albums.csv', 'album_id', row);
    if (isProblem(album)) return album;
    const song = pass.refTo(index.songs, 'songs.csv', 'song_id', row);
    if (isProblem(song)) return song;
    const disc = num(row.disc_number, 1);
    const track = row.track_number as number;
    if (disc > 999 || track > 99999) return { code: 'E_RAW_ROW', column: disc > 999 ? 'disc_number' : 'track_number', message: 'is out of range (disc <= 999, track <= 99999)' };
    const pair = pairKey(album, song);
    if (trackPairs.has(pair)) return { code: 'E_RAW_CONFLICT', column: 'song_id', message: `song ${row.song_id} is listed twice on album ${row.album_id}` };
    const slot = album * 1e8 + disc * 100000 + track;
    const holder = trackSlots.get(slot);
    if (holder !== undefined) return { code: 'E_RAW_CONFLICT', column: 'track_number', message: `disc ${disc} track ${track} of album ${row.album_id} is already song ${index.songs.ids[holder]}` };
    trackPairs.add(pair);
    trackSlots.set(slot, song);
    if (index.songPrimaryTrackRow[song] === -1) index.songPrimaryTrackRow[song] = index.albumTracks.count;
    index.albumTracks.add(album, song, disc * 100000 + track);
    index.albumTrackDisc.push(disc);
    index.albumTrackNumber.push(track);
  });
}

/** files.csv (one preferred file per song) and lyrics.csv (one text per song and language). */
async function readFilesAndLyrics(pass: FirstPass): Promise<void> {
  const { index } = pass;
  const fileIds = new Map<string, number>();
  const preferredSongs = new Set<number>();
  let fileOrdinal = 0;
  await pass.read('files', (row, line) => {
    const id = row.id as string;
    if (fileIds.has(id)) return { code: 'E_RAW_DUPLICATE', column: 'id', message: `file id ${JSON.stringify(id)} is already used on line ${fileIds.get(id)}` };
    const song = pass.refTo(index.songs, 'songs.csv', 'song_id', row);
    if (isProblem(song)) return song;
    const preferred = row.preferred === true;
    if (preferred && preferredSongs.has(song)) return { code: 'E_RAW_CONFLICT', column: 'preferred', message: `song ${row.song_id} already has a preferred file` };
    if (preferred) preferredSongs.add(song);
    fileIds.set(id, line);
    index.songFiles.add(song, fileOrdinal++, preferred ? 0 : 1);
  });
  const lyricsPairs = new Set<string>();
  await pass.read('lyrics', (row) => {
    const song = pass.refTo(index.songs, 'songs.csv', 'song_id', row);
    if (isProblem(song)) return song;
    const language = row.language as string;
    const pair = `${song}:${language.toLowerCase()}`;
    if (lyricsPairs.has(pair)) return { code: 'E_RAW_CONFLICT', column: 'language', message: `song ${row.song_id} already has ${language} lyrics` };
    lyricsPairs.add(pair);
    index.songLyrics.add(song, index.lyricsLanguages.length, 0);
    index.lyricsLanguages.push(language);
  });
}

/** playlists, their tracks, stations (no derived station's prefix) and their tracks. */
async function readPlaylistsAndStations(pass: FirstPass): Promise<void> {
  const { index } = pass;
  await pass.read('playlists', (row, line) => {
    const r = pass.entity(index.playlists, null, row, line);
    if (isProblem(r)) return r;
  });
  await pass.read('playlist_tracks', (row) => {
    const playlist = pass.refTo(index.playlists, 'playlists.csv', 'playlist_id', row);
    if (isProblem(playlist)) return playlist;
    const song = pass.refTo(index.songs, 'songs.csv', 'song_id', row);
    if (isProblem(song)) return song;
    index.playlistTracks.add(playlist, song, num(row.position, NO_POSITION));
  });
  await pass.read('stations', (row, line) => {
    const id = row.id as string;
    if (/^(artist-|album-|song-|genre-|popular)/.test(id)) {
      return { code: 'E_RAW_ROW', column: 'id', message: `${JSON.stringify(id)} starts with a derived station prefix (artist-, album-, song-, genre-, popular)` };
    }
    const r = pass.entity(index.stations, null, row, line);
    if (isProblem(r)) return r;
  });
  await pass.read('station_tracks', (row) => {
    const station = pass.refTo(index.stations, 'stations.csv', 'station_id', row);
    if (isProblem(station)) return station;
    const song = pass.refTo(index.songs, 'songs.csv', 'song_id', row);
    if (isProblem(song)) return song;
    index.customStationTracks.add(station, song, num(row.position, NO_POSITION));
  });
}

/** explore_groups.csv and explore_items.csv (an item's resource is of its group's type). */
async function readExploreFeed(pass: FirstPass): Promise<void> {
  const { index } = pass;
  const groups = new Map<string, ExploreGroupRow>();
  await pass.read('explore_groups', (row, line) => {
    const id = row.id as string;
    const existing = groups.get(id);
    if (existing) return { code: 'E_RAW_DUPLICATE', column: 'id', message: `id ${JSON.stringify(id)} is already used on line ${existing.line}` };
    const group: ExploreGroupRow = {
      id,
      title: row.title as string,
      type: row.type as ExploreGroupRow['type'],
      position: num(row.position, NO_POSITION),
      line,
      items: [],
    };
    groups.set(id, group);
    index.exploreGroups.push(group);
  });
  const typeColumns: Record<ExploreGroupRow['type'], EntityColumns> = {
    song: index.songs,
    album: index.albums,
    artist: index.artists,
    playlist: index.playlists,
    station: index.stations,
  };
  await pass.read('explore_items', (row) => {
    const group = groups.get(row.group_id as string);
    if (!group) return { code: 'E_RAW_REF', column: 'group_id', message: `${JSON.stringify(row.group_id)} is not an id in explore_groups.csv (or its row was rejected)` };
    const ordinal = typeColumns[group.type].byId.get(row.resource_id as string);
    if (ordinal === undefined) {
      return { code: 'E_RAW_REF', column: 'resource_id', message: `${JSON.stringify(row.resource_id)} is not a ${group.type} id (group ${group.id} holds ${group.type}s)` };
    }
    group.items.push({ ordinal, position: num(row.position, NO_POSITION) });
  });
}
