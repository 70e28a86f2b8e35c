import type { MemoryBudget } from '../memory-budget.js';
import type { ParsedRow } from '../raw-file.js';
import { mapU32Column, NumberColumnWriter, StringColumn, StringColumnWriter } from '../spill/columns.js';
import type { SpillDir } from '../spill/spill-dir.js';
import type { DeferredIssues } from './deferred-issues.js';
import { EdgeFilesWriter, type EdgeFiles } from './edge-files.js';
import type { ExploreGroupRow, ParsedCatalog } from './parse-raw.js';
import { NONE, refKey, type EntityName } from './raw-refs.js';
import { RefRules } from './ref-rules.js';
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

/**
 * Checks every file of references against the resolved ids, in order: a reference that names
 * nothing rejects its row; then the rules between rows (a credit twice, a song twice on an album,
 * two songs in one track slot, two preferred files, two lyrics in one language), each among the
 * rows that passed the rules before it, the earlier row kept. Conflicts are found by sorting the
 * rows by what must not repeat. The rows left are written as edge columns.
 */
export function checkRefs(parsed: ParsedCatalog, resolved: ResolvedCatalog, spill: SpillDir, budget: MemoryBudget, deferred: DeferredIssues): CheckedRefs {
  const rules = new RefRules(parsed, resolved, spill, budget, deferred);
  const albumArtists = checkCredits(rules, 'album_artists', 'album_id', 'album');
  const songArtists = checkCredits(rules, 'song_artists', 'song_id', 'song');
  const albumTracks = checkAlbumTracks(rules);
  const files = checkFiles(rules);
  const lyrics = checkLyrics(rules);
  return {
    albumArtists,
    songArtists,
    albumTracks,
    files,
    lyrics,
    playlistTracks: checkTrackList(rules, 'playlist_tracks', 'playlist_id'),
    stationTracks: checkTrackList(rules, 'station_tracks', 'station_id'),
    explore: checkExplore(parsed, resolved, deferred),
  };
}

/** album_artists and song_artists: both ids must name something, and an artist is credited once. */
function checkCredits(rules: RefRules, file: 'album_artists' | 'song_artists', owner: 'album_id' | 'song_id', what: string): EdgeFiles {
  const rejected = rules.dangling(
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
  const owners = rules.ordinalsOf(file, owner);
  const artists = rules.ordinalsOf(file, 'artist_id');
  rules.repeats(
    file,
    rejected,
    (r, k) => ((k[0] = owners[r]), (k[1] = artists[r]), true),
    () => ({
      code: 'E_RAW_CONFLICT',
      column: 'artist_id',
      message: (row: ParsedRow) => `artist ${row.artist_id} is credited twice on ${what} ${row[owner]}`,
    }),
  );
  const pos = rules.positions(file);
  return rules.edges(file, file, owner, 'artist_id', rejected, (r) => pos[r]);
}

/** playlist_tracks and station_tracks: both ids must name something. */
function checkTrackList(rules: RefRules, file: 'playlist_tracks' | 'station_tracks', owner: 'playlist_id' | 'station_id'): EdgeFiles {
  const rejected = rules.dangling(file, [
    [owner, owner === 'playlist_id' ? 'playlists' : 'stations'],
    ['song_id', 'songs'],
  ]);
  const pos = rules.positions(file);
  return rules.edges(file, file, owner, 'song_id', rejected, (r) => pos[r]);
}

/** album_tracks: both ids must name something, a song is on an album once, a track slot holds one song. */
function checkAlbumTracks(rules: RefRules): CheckedRefs['albumTracks'] {
  const { parsed, resolved, spill } = rules;
  const file = 'album_tracks';
  const rejected = rules.dangling(file, [
    ['album_id', 'albums'],
    ['song_id', 'songs'],
  ]);
  const albums = rules.ordinalsOf(file, 'album_id');
  const songs = rules.ordinalsOf(file, 'song_id');
  const disc = mapU32Column(parsed.refs[file].columns.disc);
  const track = mapU32Column(parsed.refs[file].columns.track);
  rules.repeats(
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
  rules.repeats(
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
  const accepted = rules.edges(file, file, 'album_id', 'song_id', rejected, (r) => disc[r] * 100000 + track[r]);
  return { ...accepted, disc: discOut.path, track: trackOut.path };
}

/** files: a duplicate file id or a song that names nothing rejects its row; a song has one preferred file. */
function checkFiles(rules: RefRules): EdgeFiles {
  const { parsed, resolved, spill, deferred } = rules;
  const file = 'files';
  const rejected = new Uint8Array(parsed.refs.files.rows);
  for (const r of resolved.duplicateFiles) rejected[r] = 1;
  const songs = rules.ordinalsOf(file, 'song_id');
  const lines = rules.linesOf(file);
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
  rules.repeats(
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

/** lyrics: the song must name something, and has one lyrics per language (case folded). */
function checkLyrics(rules: RefRules): CheckedRefs['lyrics'] {
  const { parsed, spill } = rules;
  const file = 'lyrics';
  const rejected = rules.dangling(file, [['song_id', 'songs']]);
  const songs = rules.ordinalsOf(file, 'song_id');
  const languages = StringColumn.open(parsed.refs.lyrics.columns.language);
  const lower = (r: number) => languages.get(r).toLowerCase();
  rules.repeats(
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

/** explore_items: each must name a resource of its group's type. */
function checkExplore(parsed: ParsedCatalog, resolved: ResolvedCatalog, deferred: DeferredIssues): CheckedRefs['explore'] {
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
