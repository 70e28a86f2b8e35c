import type { MemoryBudget } from '../memory-budget.js';
import type { ParsedRow } from '../raw-file.js';
import { mapF64Column, mapU32Column, NumberColumnWriter, StringColumn, StringColumnWriter } from '../spill/columns.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import type { DeferredIssue, DeferredIssues } from './deferred-issues.js';
import { EdgeFilesWriter, type EdgeFiles } from './edge-files.js';
import type { ExploreGroupRow, ParsedCatalog } from './parse-raw.js';
import { NONE, refKey, type EntityName, type RefFile } from './raw-refs.js';
import type { ResolvedCatalog } from './resolve-ids.js';

/** The accepted rows of every file of references. */
export interface CheckedRefs {
  readonly albumArtists: EdgeFiles;
  readonly songArtists: EdgeFiles;
  /** album -> song, position = disc * 100000 + track; plus disc and track columns by accepted row. */
  readonly albumTracks: EdgeFiles & { readonly disc: string; readonly track: string };
  /** song -> file ordinal (the accepted row's index); position 0 preferred, 1 not. */
  readonly files: EdgeFiles;
  /** song -> lyrics ordinal; `languages` by lyrics ordinal. */
  readonly lyrics: EdgeFiles & { readonly languages: string };
  readonly playlistTracks: EdgeFiles;
  readonly stationTracks: EdgeFiles;
  readonly explore: readonly { readonly group: ExploreGroupRow; readonly items: { ordinal: number; position: number }[] }[];
}

const TARGET_FILE: Record<EntityName, string> = {
  artists: 'artists.csv',
  albums: 'albums.csv',
  songs: 'songs.csv',
  playlists: 'playlists.csv',
  stations: 'stations.csv',
};

/**
 * Checks every file of references against the resolved ids, in order: a reference that names
 * nothing rejects its row; then the rules between rows (a credit twice, a song twice on an album,
 * two songs in one track slot, two preferred files, two lyrics in one language), each among the
 * rows that passed the rules before it, the earlier row kept. Conflicts are found by sorting the
 * rows by what must not repeat. The rows left are written as edge columns.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: not yet split by phase (issue 40, item 7)
export function checkRefs(parsed: ParsedCatalog, resolved: ResolvedCatalog, spill: SpillDir, budget: MemoryBudget, deferred: DeferredIssues): CheckedRefs {
  const bytes = budget.sorterBytes(1);
  const ordinalsOf = (file: RefFile, column: string) => mapU32Column(resolved.refs.get(refKey(file, column))!);
  const linesOf = (file: RefFile) => mapU32Column(parsed.refs[file].lines);

  /** Rejects rows whose references name nothing; the rows left, as a bitmap of rejected rows. */
  const dangling = (file: RefFile, columns: [string, EntityName][]): Uint8Array => {
    const rows = parsed.refs[file].rows;
    const lines = linesOf(file);
    const rejected = new Uint8Array(rows);
    const resolvedColumns = columns.map(([column, entity]) => ({ column, entity, ordinals: ordinalsOf(file, column) }));
    for (let r = 0; r < rows; r++) {
      for (const { column, entity, ordinals } of resolvedColumns) {
        if (ordinals[r] !== NONE) continue;
        rejected[r] = 1;
        deferred.add(file, lines[r], {
          code: 'E_RAW_REF',
          column,
          message: (row) => `${JSON.stringify(row[column])} is not an id in ${TARGET_FILE[entity]} (or its row was rejected)`,
        });
        break;
      }
    }
    return rejected;
  };

  /** Rejects rows (not yet rejected) whose key repeats an earlier such row's. */
  const repeats = (
    file: RefFile,
    rejected: Uint8Array,
    key: (r: number, out: Uint32Array) => boolean,
    issue: (r: number, first: number) => DeferredIssue,
    same?: (r: number, first: number) => boolean,
  ) => {
    // Rows go in in order and the sort is stable: sorted on the key alone, each key's rows stay in row order.
    const sorter = new FixedSorter(spill.path, spill.name(`repeats-${file}`), 3, 2, bytes);
    const k = new Uint32Array(2);
    for (let r = 0; r < rejected.length; r++) if (!rejected[r] && key(r, k)) sorter.add(k[0], k[1], r);
    const lines = linesOf(file);
    let p0 = -1;
    let p1 = -1;
    let first = -1;
    const found: [number, number][] = [];
    sorter.drain((words, at) => {
      const r = words[at + 2];
      if (words[at] === p0 && words[at + 1] === p1 && (!same || same(r, first))) {
        found.push([r, first]);
        return;
      }
      p0 = words[at];
      p1 = words[at + 1];
      first = r;
    });
    for (const [r, firstRow] of found) {
      rejected[r] = 1;
      deferred.add(file, lines[r], issue(r, firstRow));
    }
  };

  const positions = (file: RefFile) => mapF64Column(parsed.refs[file].columns.position);
  const edges = (file: RefFile, name: string, owner: string, target: string, rejected: Uint8Array, position: (r: number) => number): EdgeFiles => {
    const owners = ordinalsOf(file, owner);
    const targets = ordinalsOf(file, target);
    const out = new EdgeFilesWriter(spill, name);
    for (let r = 0; r < rejected.length; r++) if (!rejected[r]) out.add(owners[r], targets[r], position(r));
    return out.finish();
  };
  const credits = (file: 'album_artists' | 'song_artists', owner: 'album_id' | 'song_id', what: string) => {
    const rejected = dangling(
      file,
      owner === 'album_id'
        ? [
            ['album_id', 'albums'],
            ['artist_id', 'artists'],
          ]
        : [
            ['song_id', 'songs'],
            ['artist_id', 'artists'],
          ],
    );
    const owners = ordinalsOf(file, owner);
    const artists = ordinalsOf(file, 'artist_id');
    repeats(
      file,
      rejected,
      (r, k) => ((k[0] = owners[r]), (k[1] = artists[r]), true),
      () => ({
        code: 'E_RAW_CONFLICT',
        column: 'artist_id',
        message: (row: ParsedRow) => `artist ${row.artist_id} is credited twice on ${what} ${row[owner]}`,
      }),
    );
    const pos = positions(file);
    return edges(file, file, owner, 'artist_id', rejected, (r) => pos[r]);
  };

  const albumArtists = credits('album_artists', 'album_id', 'album');
  const songArtists = credits('song_artists', 'song_id', 'song');
  const albumTracks = checkAlbumTracks();
  const files = checkFiles();
  const lyrics = checkLyrics();
  const trackList = (file: 'playlist_tracks' | 'station_tracks', owner: 'playlist_id' | 'station_id') => {
    const rejected = dangling(file, [
      [owner, owner === 'playlist_id' ? 'playlists' : 'stations'],
      ['song_id', 'songs'],
    ]);
    const pos = positions(file);
    return edges(file, file, owner, 'song_id', rejected, (r) => pos[r]);
  };
  return {
    albumArtists,
    songArtists,
    albumTracks,
    files,
    lyrics,
    playlistTracks: trackList('playlist_tracks', 'playlist_id'),
    stationTracks: trackList('station_tracks', 'station_id'),
    explore: checkExplore(),
  };

  function checkAlbumTracks(): CheckedRefs['albumTracks'] {
    const file = 'album_tracks';
    const rejected = dangling(file, [
      ['album_id', 'albums'],
      ['song_id', 'songs'],
    ]);
    const albums = ordinalsOf(file, 'album_id');
    const songs = ordinalsOf(file, 'song_id');
    const disc = mapU32Column(parsed.refs[file].columns.disc);
    const track = mapU32Column(parsed.refs[file].columns.track);
    repeats(
      file,
      rejected,
      (r, k) => ((k[0] = albums[r]), (k[1] = songs[r]), true),
      () => ({
        code: 'E_RAW_CONFLICT',
        column: 'song_id',
        message: (row) => `song ${row.song_id} is listed twice on album ${row.album_id}`,
      }),
    );
    const songIds = StringColumn.open(resolved.entities.songs.ids);
    repeats(
      file,
      rejected,
      (r, k) => ((k[0] = albums[r]), (k[1] = disc[r] * 100000 + track[r]), true),
      (r, first) => ({
        code: 'E_RAW_CONFLICT',
        column: 'track_number',
        message: (row) => `disc ${disc[r]} track ${track[r]} of album ${row.album_id} is already song ${songIds.get(songs[first])}`,
      }),
    );
    const discOut = new NumberColumnWriter(spill.file('album_tracks.accepted-disc'), 'u32');
    const trackOut = new NumberColumnWriter(spill.file('album_tracks.accepted-track'), 'u32');
    for (let r = 0; r < rejected.length; r++) {
      if (rejected[r]) continue;
      discOut.push(disc[r]);
      trackOut.push(track[r]);
    }
    discOut.finish();
    trackOut.finish();
    const accepted = edges(file, file, 'album_id', 'song_id', rejected, (r) => disc[r] * 100000 + track[r]);
    return { ...accepted, disc: discOut.path, track: trackOut.path };
  }

  function checkFiles(): EdgeFiles {
    const file = 'files';
    const rejected = new Uint8Array(parsed.refs.files.rows);
    for (const r of resolved.duplicateFiles) rejected[r] = 1;
    const songs = ordinalsOf(file, 'song_id');
    const lines = linesOf(file);
    for (let r = 0; r < rejected.length; r++) {
      if (rejected[r] || songs[r] !== NONE) continue;
      rejected[r] = 1;
      deferred.add(file, lines[r], {
        code: 'E_RAW_REF',
        column: 'song_id',
        message: (row) => `${JSON.stringify(row.song_id)} is not an id in songs.csv (or its row was rejected)`,
      });
    }
    const preferred = mapU32Column(parsed.refs.files.columns.preferred);
    repeats(
      file,
      rejected,
      (r, k) => ((k[0] = songs[r]), (k[1] = 0), preferred[r] === 1),
      () => ({
        code: 'E_RAW_CONFLICT',
        column: 'preferred',
        message: (row) => `song ${row.song_id} already has a preferred file`,
      }),
    );
    const out = new EdgeFilesWriter(spill, 'files');
    let ordinal = 0;
    for (let r = 0; r < rejected.length; r++) if (!rejected[r]) out.add(songs[r], ordinal++, preferred[r] === 1 ? 0 : 1);
    return out.finish();
  }

  function checkLyrics(): CheckedRefs['lyrics'] {
    const file = 'lyrics';
    const rejected = dangling(file, [['song_id', 'songs']]);
    const songs = ordinalsOf(file, 'song_id');
    const languages = StringColumn.open(parsed.refs.lyrics.columns.language);
    const lower = (r: number) => languages.get(r).toLowerCase();
    repeats(
      file,
      rejected,
      (r, k) => ((k[0] = songs[r]), (k[1] = fnv(lower(r))), true),
      () => ({
        code: 'E_RAW_CONFLICT',
        column: 'language',
        message: (row) => `song ${row.song_id} already has ${row.language} lyrics`,
      }),
      (r, first) => lower(r) === lower(first),
    );
    const out = new EdgeFilesWriter(spill, 'lyrics');
    const kept = new StringColumnWriter(spill.file('lyrics.accepted-language'));
    for (let r = 0; r < rejected.length; r++) {
      if (rejected[r]) continue;
      out.add(songs[r], kept.length, 0);
      kept.push(languages.get(r));
    }
    kept.finish();
    return { ...out.finish(), languages: kept.path };
  }

  function checkExplore(): CheckedRefs['explore'] {
    const groups = parsed.exploreGroups.map((group) => ({ group, items: [] as { ordinal: number; position: number }[] }));
    if (parsed.exploreItems.length === 0) return groups;
    const ordinals = {} as Record<EntityName, Uint32Array>;
    const mapped = (entity: EntityName): Uint32Array => (ordinals[entity] ??= mapU32Column(resolved.refs.get(refKey('explore_items', 'resource_id', entity))!));
    parsed.exploreItems.forEach((item, i) => {
      const g = groups[item.group];
      const entity = ENTITY_OF[g.group.type];
      const ordinal = mapped(entity)[i];
      if (ordinal === NONE) {
        deferred.add('explore_items', item.line, {
          code: 'E_RAW_REF',
          column: 'resource_id',
          message: `${JSON.stringify(item.resourceId)} is not a ${g.group.type} id (group ${g.group.id} holds ${g.group.type}s)`,
        });
        return;
      }
      g.items.push({ ordinal, position: item.position });
    });
    return groups;
  }
}

const ENTITY_OF: Record<ExploreGroupRow['type'], EntityName> = {
  song: 'songs',
  album: 'albums',
  artist: 'artists',
  playlist: 'playlists',
  station: 'stations',
};

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
