import fc from 'fast-check';
import type { RawTables } from '../../src/generate/daily-changes.js';

/**
 * Random deliveries for the segments' property test (segments-property.test.ts): small changes a
 * label's delivery makes to a raw catalog, drawn by fast-check, applied as `omm import --into`
 * would leave the raw catalog. Names come from a small vocabulary, so words are shared, prefixes
 * overlap and near-typos exist between documents of different segments.
 */

const WORDS = ['Love', 'Lovely', 'Lover', 'Night', 'Nightfall', 'You', 'Heart', 'The', 'Ave', 'Maria', 'Intro', 'Blue'];

const name = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));

export type DeliveryOp =
  | { kind: 'takeDownAlbum'; at: number }
  | { kind: 'renameSong'; at: number; name: string }
  | { kind: 'rerank'; at: number; popularity: number }
  | { kind: 'renameArtist'; at: number; name: string }
  | { kind: 'addRelease'; names: string[]; artist: number | null; sharesIsrcOf: number | null };

export const deliveryOp: fc.Arbitrary<DeliveryOp> = fc.oneof(
  fc.record({ kind: fc.constant('takeDownAlbum' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('renameSong' as const), at: fc.nat(), name }),
  fc.record({ kind: fc.constant('rerank' as const), at: fc.nat(), popularity: fc.nat(2000) }),
  fc.record({ kind: fc.constant('renameArtist' as const), at: fc.nat(), name }),
  fc.record({
    kind: fc.constant('addRelease' as const),
    names: fc.array(name, { minLength: 1, maxLength: 4 }),
    artist: fc.option(fc.nat(), { nil: null }),
    sharesIsrcOf: fc.option(fc.nat(), { nil: null }),
  }),
);

/** A delivery: a few operations. */
export const delivery = fc.array(deliveryOp, { minLength: 1, maxLength: 6 });

type Rows = Map<string, Record<string, string>[]>;

/** The raw catalog after a delivery (`round` names what it adds apart from earlier rounds'). */
export function applyOps(tables: RawTables, ops: readonly DeliveryOp[], round: number): RawTables {
  const rows: Rows = new Map([...tables.rows].map(([file, list]) => [file, list.map((r) => ({ ...r }))]));
  ops.forEach((op, i) => applyOp(rows, op, `${round}x${i}`));
  return { headers: tables.headers, rows };
}

function applyOp(rows: Rows, op: DeliveryOp, tag: string): void {
  const list = (file: string) => rows.get(file) ?? [];
  const pick = <T>(items: T[], at: number): T | undefined => (items.length > 0 ? items[at % items.length] : undefined);
  if (op.kind === 'takeDownAlbum') {
    const album = pick(list('albums'), op.at);
    if (album) takeDown(rows, album.id);
  } else if (op.kind === 'renameSong') {
    const song = pick(list('songs'), op.at);
    if (song) song.name = op.name;
  } else if (op.kind === 'rerank') {
    const song = pick(list('songs'), op.at);
    if (song) song.popularity = String(op.popularity);
  } else if (op.kind === 'renameArtist') {
    const artist = pick(list('artists'), op.at);
    if (artist) artist.name = op.name;
  } else addRelease(rows, op, tag);
}

/** An album and its tracks out, as a takedown of its release leaves the raw catalog. */
function takeDown(rows: Rows, albumId: string): void {
  const songs = new Set((rows.get('album_tracks') ?? []).filter((t) => t.album_id === albumId).map((t) => t.song_id));
  const keep = (file: string, test: (r: Record<string, string>) => boolean) => rows.set(file, (rows.get(file) ?? []).filter(test));
  keep('albums', (r) => r.id !== albumId);
  keep('album_artists', (r) => r.album_id !== albumId);
  keep('album_tracks', (r) => r.album_id !== albumId && !songs.has(r.song_id));
  keep('explore_items', (r) => r.resource_id !== albumId && !songs.has(r.resource_id));
  keep('songs', (r) => !songs.has(r.id));
  for (const file of ['song_artists', 'files', 'lyrics', 'playlist_tracks', 'station_tracks']) keep(file, (r) => !songs.has(r.song_id));
}

function addRelease(rows: Rows, op: Extract<DeliveryOp, { kind: 'addRelease' }>, tag: string): void {
  const artists = rows.get('artists')!;
  const songs = rows.get('songs')!;
  const existing = op.artist !== null && artists.length > 0 ? artists[op.artist % artists.length] : null;
  const artistId = existing ? existing.id : `arP${tag}`;
  if (!existing) artists.push({ ...artists[0], id: artistId, name: `Artist ${tag}`, omm_id: '' });
  const album = `alP${tag}`;
  rows.get('albums')!.push({ ...rows.get('albums')![0], id: album, name: op.names[0], omm_id: '', upc: '' });
  rows.get('album_artists')!.push({ album_id: album, artist_id: artistId, position: '1' });
  op.names.forEach((name, k) => {
    const shared = op.sharesIsrcOf !== null && k === 0 && songs.length > 0 ? songs[op.sharesIsrcOf % songs.length].isrc : '';
    const id = `sP${tag}x${k}`;
    songs.push({ ...songs[0], id, name, omm_id: '', isrc: shared ?? '', popularity: String(50 * k + tag.length) });
    rows.get('song_artists')!.push({ song_id: id, artist_id: artistId, position: '1' });
    rows.get('album_tracks')!.push({ album_id: album, song_id: id, disc_number: '1', track_number: String(k + 1) });
  });
}
