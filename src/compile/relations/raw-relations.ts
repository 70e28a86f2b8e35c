import type { MemoryBudget } from '../memory-budget.js';
import { mapF64Column, mapU32Column, NumberColumnWriter } from '../spill/columns.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import { openEdges, type EdgeColumns } from '../validate/edge-files.js';
import { NONE } from '../validate/raw-refs.js';
import type { ValidatedCatalog } from '../validate/validate-catalog.js';
import { AdjacencyWriter, openAdjacency, targetsOf, type AdjacencyFiles } from './adjacency-files.js';
import { groupByPosition, groupInRowOrder } from './group-edges.js';

/** The relations read straight from the raw files, and each song's primary album. */
export interface RawRelations {
  readonly albumArtists: AdjacencyFiles;
  /** Own credits, or the primary album's when a song has none. */
  readonly songArtists: AdjacencyFiles;
  readonly albumTracks: AdjacencyFiles;
  /** The primary album (a song's first album_tracks row) first, then row order. */
  readonly songAlbums: AdjacencyFiles;
  readonly playlistTracks: AdjacencyFiles;
  readonly customStationTracks: AdjacencyFiles;
  readonly songFiles: AdjacencyFiles;
  readonly songLyrics: AdjacencyFiles;
  /** u32 by song: the primary album's ordinal, NONE without. */
  readonly primaryAlbum: string;
  /** u32 by song: the accepted album_tracks row of the primary album, NONE without. */
  readonly primaryTrack: string;
  /** f64 by song: the release date key, the primary album's when the song has none. */
  readonly songReleaseKey: string;
}

/**
 * Groups every file of references by its owner (out of core, one sort each) and works out what
 * songs take from their primary album: credits and the release date key.
 */
export function groupRawRelations(v: ValidatedCatalog, spill: SpillDir, budget: MemoryBudget): RawRelations {
  const bytes = budget.sorterBytes(1);
  const { songs, albums, playlists, stations } = v.entities;
  const albumTrackEdges = openEdges(v.edges.albumTracks);

  const { songAlbums, primaryAlbum, primaryTrack } = groupSongAlbums(spill, songs.count, albumTrackEdges, bytes);
  const albumArtists = groupByPosition(spill, 'album.artists', albums.count, openEdges(v.edges.albumArtists), bytes);
  const ownSongArtists = groupByPosition(spill, 'song.own-artists', songs.count, openEdges(v.edges.songArtists), bytes);
  const songArtists = inheritCredits(spill, songs.count, ownSongArtists, albumArtists, mapU32Column(primaryAlbum));

  const songRelease = mapF64Column(songs.releaseKey);
  const albumRelease = mapF64Column(albums.releaseKey);
  const primary = mapU32Column(primaryAlbum);
  const releaseKey = new NumberColumnWriter(spill.file('songs.release-key-inherited'), 'f64');
  for (let s = 0; s < songs.count; s++) {
    const own = songRelease[s];
    releaseKey.push(Number.isNaN(own) && primary[s] !== NONE ? albumRelease[primary[s]] : own);
  }
  releaseKey.finish();

  return {
    albumArtists,
    songArtists,
    albumTracks: groupByPosition(spill, 'album.tracks', albums.count, albumTrackEdges, bytes),
    songAlbums,
    playlistTracks: groupByPosition(spill, 'playlist.tracks', playlists.count, openEdges(v.edges.playlistTracks), bytes),
    customStationTracks: groupByPosition(spill, 'station.custom-tracks', stations.count, openEdges(v.edges.stationTracks), bytes),
    songFiles: groupByPosition(spill, 'song.files', songs.count, openEdges(v.edges.files), bytes),
    songLyrics: groupInRowOrder(spill, 'song.lyrics', songs.count, openEdges(v.edges.lyrics), bytes),
    primaryAlbum,
    primaryTrack,
    songReleaseKey: releaseKey.path,
  };
}

/** song -> albums in album_tracks row order; the first row names the primary album. */
function groupSongAlbums(spill: SpillDir, songCount: number, tracks: EdgeColumns, bytes: number) {
  const sorter = new FixedSorter(spill.path, spill.name('song.albums'), 2, 2, bytes);
  for (let i = 0; i < tracks.count; i++) sorter.add(tracks.targets[i], i);
  const out = new AdjacencyWriter(spill, 'song.albums', songCount);
  const primaryAlbum = new NumberColumnWriter(spill.file('songs.primary-album'), 'u32');
  const primaryTrack = new NumberColumnWriter(spill.file('songs.primary-track'), 'u32');
  sorter.drain((words, at) => {
    const song = words[at];
    const row = words[at + 1];
    if (primaryAlbum.length <= song) {
      while (primaryAlbum.length < song) {
        primaryAlbum.push(NONE);
        primaryTrack.push(NONE);
      }
      primaryAlbum.push(tracks.owners[row]);
      primaryTrack.push(row);
    }
    out.add(song, tracks.owners[row]);
  });
  while (primaryAlbum.length < songCount) {
    primaryAlbum.push(NONE);
    primaryTrack.push(NONE);
  }
  primaryAlbum.finish();
  primaryTrack.finish();
  return { songAlbums: out.finish(), primaryAlbum: primaryAlbum.path, primaryTrack: primaryTrack.path };
}

/** Songs without credit rows take the credits of their primary album. */
function inheritCredits(spill: SpillDir, songCount: number, ownFiles: AdjacencyFiles, albumFiles: AdjacencyFiles, primaryAlbum: Uint32Array): AdjacencyFiles {
  const own = openAdjacency(ownFiles);
  const album = openAdjacency(albumFiles);
  const out = new AdjacencyWriter(spill, 'song.artists', songCount);
  for (let s = 0; s < songCount; s++) {
    const list = targetsOf(own, s);
    if (list.length > 0) out.addAll(s, list);
    else if (primaryAlbum[s] !== NONE) out.addAll(s, targetsOf(album, primaryAlbum[s]));
  }
  return out.finish();
}
