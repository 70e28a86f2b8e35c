import type { Catalog } from '../../catalog/catalog.js';
import type { SegmentType } from '../../catalog/segments.js';
import type { DeltaChanges } from './delta-changes.js';
import type { RawRow } from './raw-rows.js';

/**
 * Which resources a delivery may change, and which rows a compile of them needs (docs/segments.md,
 * "Which resources a delivery changes"). A record holds fields of other resources and every
 * relationship list of its own, so the delta holds more than the journal names:
 *
 * - songs: those changed, the tracks of changed albums, the songs of changed artists;
 * - albums: those changed, those a changed song joins or leaves, the albums of changed artists;
 * - artists: those changed, the artists of those songs and albums (their lists and derived
 *   genres);
 * - playlists: those listing those songs (a song taken out leaves their lists).
 *
 * These are the **candidates**: each is compared with the version in service and held only when
 * it differs. Compiling them needs their neighbours too (an album's every track, a song's albums
 * and artists, an album's artists): the **included** rows. An artist's or a playlist's lists are
 * not compiled whole but made from the lists in service (patched-lists.ts), so a candidate
 * artist's other songs are not read. Lists are read from the snapshot in service for what the
 * delivery left alone, and from the raw link rows that name a changed resource (`links`) for
 * what it changed.
 */
export interface Closure {
  readonly candidates: Readonly<Record<'song' | 'album' | 'artist' | 'playlist', ReadonlySet<string>>>;
  readonly included: Readonly<Record<'song' | 'album' | 'artist' | 'playlist', ReadonlySet<string>>>;
}

/** The raw link rows that name a changed album, song or artist, and the changed artists' names (the first scan of compile-delta.ts). */
export interface ChangedLinks {
  /** A changed artist's id -> their name in the raw catalog (absent when taken out). */
  readonly artistNames: ReadonlyMap<string, string>;
  readonly albumTracks: RawRow[];
  readonly albumArtists: RawRow[];
  readonly songArtists: RawRow[];
  /**
   * The rows are those the changed albums and songs own (an album's tracks and credits, a song's
   * credits), read where a link row changes only with its owner (a streamed import's files):
   * a changed song's other albums are then those the snapshot in service lists.
   */
  readonly byOwner?: boolean;
}

/** Whether a link row names a changed resource, and so belongs in ChangedLinks. */
export function namesChanged(changes: DeltaChanges, file: 'album_tracks' | 'album_artists' | 'song_artists', row: RawRow): boolean {
  const { album, song, artist } = changes.changed;
  if (file === 'album_tracks') return album.has(row.album_id) || song.has(row.song_id);
  if (file === 'album_artists') return album.has(row.album_id) || artist.has(row.artist_id);
  return song.has(row.song_id) || artist.has(row.artist_id);
}

/** Adds to `out` the `to` column of every row whose `from` column is in `sources`. */
function linked(rows: RawRow[], from: string, to: string, sources: ReadonlySet<string>, out: Set<string>): void {
  for (const row of rows) if (sources.has(row[from])) out.add(row[to]);
}

export function deltaClosure(prev: Catalog, changes: DeltaChanges, links: ChangedLinks): Closure {
  const lists = new PrevLists(prev);
  const changedSongs = new Set(changes.changed.song.keys());
  const changedAlbums = new Set(changes.changed.album.keys());
  const changedArtists = new Set(changes.changed.artist.keys());

  const songs = new Set(changedSongs);
  lists.add('album.tracks', changedAlbums, songs);
  linked(links.albumTracks, 'album_id', 'song_id', changedAlbums, songs);
  // A song and an album take their artists' names: those of artists renamed (or new, or taken
  // out) change them; an artist delivered again under the same name changes no song.
  const renamed = renamedArtists(lists, changedArtists, links.artistNames);
  lists.add('artist.songs', renamed, songs);
  linked(links.songArtists, 'artist_id', 'song_id', renamed, songs);

  // An album's record and lists change with its own rows (its tracks are among them: a release
  // delivered again names the album), with its artists' names, or when a changed song joins or
  // leaves it; a song renamed or re-ranked changes no album.
  const albums = new Set(changedAlbums);
  for (const album of movedAlbums(lists, links, changedSongs, changedAlbums)) albums.add(album);
  lists.add('artist.albums', renamed, albums);
  linked(links.albumArtists, 'artist_id', 'album_id', renamed, albums);

  const artists = new Set(changedArtists);
  lists.add('song.artists', songs, artists);
  linked(links.songArtists, 'song_id', 'artist_id', songs, artists);
  lists.add('album.artists', albums, artists);
  linked(links.albumArtists, 'album_id', 'artist_id', albums, artists);

  const playlists = new Set<string>();
  lists.add('song.playlists', songs, playlists);

  const candidates = { song: songs, album: albums, artist: artists, playlist: playlists };
  return { candidates, included: included(lists, links, candidates) };
}

/** The changed artists whose name the raw catalog gives otherwise than the snapshot in service (new and taken out ones too). */
function renamedArtists(lists: PrevLists, changed: ReadonlySet<string>, names: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  for (const id of changed) if (lists.nameOf('artist', id) !== names.get(id)) out.add(id);
  return out;
}

/** The albums a changed song joins or leaves: its albums in service against its raw rows. */
function movedAlbums(lists: PrevLists, links: ChangedLinks, changedSongs: ReadonlySet<string>, changedAlbums: ReadonlySet<string>): Set<string> {
  const now = new Map<string, Set<string>>();
  for (const row of links.albumTracks) {
    if (!changedSongs.has(row.song_id)) continue;
    let albums = now.get(row.song_id);
    if (!albums) now.set(row.song_id, (albums = new Set()));
    albums.add(row.album_id);
  }
  const out = new Set<string>();
  for (const song of changedSongs) {
    const before = new Set<string>();
    lists.add('song.albums', new Set([song]), before);
    const after = now.get(song) ?? new Set<string>();
    // By owner, the links hold the changed albums' tracks only: the song is still on its other albums.
    if (links.byOwner) for (const album of before) if (!changedAlbums.has(album)) after.add(album);
    for (const album of before) if (!after.has(album)) out.add(album);
    for (const album of after) if (!before.has(album)) out.add(album);
  }
  return out;
}

/** The candidates and every neighbour their records and lists are made from. */
function included(lists: PrevLists, links: ChangedLinks, held: Closure['candidates']): Closure['included'] {
  const songs = new Set(held.song);
  lists.add('album.tracks', held.album, songs);
  linked(links.albumTracks, 'album_id', 'song_id', held.album, songs);

  const albums = new Set(held.album);
  lists.add('song.albums', songs, albums);
  linked(links.albumTracks, 'song_id', 'album_id', songs, albums);

  const artists = new Set(held.artist);
  lists.add('song.artists', songs, artists);
  linked(links.songArtists, 'song_id', 'artist_id', songs, artists);
  lists.add('album.artists', albums, artists);
  linked(links.albumArtists, 'album_id', 'artist_id', albums, artists);

  return { song: songs, album: albums, artist: artists, playlist: new Set(held.playlist) };
}

const SOURCE_OF: Record<string, 'song' | 'album' | 'artist' | 'playlist'> = {
  'album.tracks': 'album',
  'album.artists': 'album',
  'artist.songs': 'artist',
  'artist.albums': 'artist',
  'song.albums': 'song',
  'song.artists': 'song',
  'song.playlists': 'song',
  'playlist.tracks': 'playlist',
};

const TARGET_OF: Record<string, SegmentType> = {
  'album.tracks': 'song',
  'album.artists': 'artist',
  'artist.songs': 'song',
  'artist.albums': 'album',
  'song.albums': 'album',
  'song.artists': 'artist',
  'song.playlists': 'playlist',
  'playlist.tracks': 'song',
};

/** The snapshot in service's lists, by local id. */
class PrevLists {
  constructor(private readonly prev: Catalog) {}

  /** The name the snapshot in service gives a resource, or undefined when it serves none of that id. */
  nameOf(type: 'artist', id: string): string | undefined {
    const g = this.prev.resolve(type, id);
    return g < 0 ? undefined : this.prev.records(type).get<{ name: string }>(g).name;
  }

  /** Adds to `out` the ids of the targets of `name` of every source in `sources` the snapshot serves. */
  add(name: string, sources: ReadonlySet<string>, out: Set<string>): void {
    if (!this.prev.hasRelation(name)) return;
    const relation = this.prev.relation(name);
    const targets = this.prev.records(TARGET_OF[name]);
    for (const id of sources) {
      const source = this.prev.resolve(SOURCE_OF[name], id);
      if (source < 0) continue;
      for (const t of relation.targetsOf(source)) out.add(String(targets.get<{ id: string }>(t).id));
    }
  }
}
