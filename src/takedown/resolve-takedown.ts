import { parseCatalogId } from '../catalog/catalog-ids.js';
import type { Catalog } from '../catalog/catalog.js';
import { DELETABLE_TYPES, type DeletableType } from '../catalog/deletes.js';
import type { Adjacency } from '../index-format/index.js';
import { normalizeGtin13 } from '../raw/codes.js';
import { keyText, type TakedownKey } from './takedown-keys.js';

/** What a takedown takes out of service: the whole deletes set after it, and what it added. */
export interface TakedownPlan {
  /** The deletes set after the takedown (the snapshot's earlier one included), sorted ordinals. */
  readonly set: Record<DeletableType, Uint32Array>;
  /** Taken down by this takedown, not before. */
  readonly added: Record<DeletableType, number>;
  /** Of `added`, what the keys named themselves (the rest went with an album or an artist). */
  readonly named: Record<DeletableType, number>;
  /** Keys whose songs, albums or artists were all taken down already. */
  readonly alreadyDown: string[];
  /** Keys that name nothing in the snapshot. */
  readonly unknown: string[];
  /** What the whole set takes out of the manifest's counts. */
  readonly counts: Record<'songs' | 'albums' | 'artists' | 'stations' | 'files' | 'lyrics', number>;
}

/** One bit per ordinal of each type. */
class Marks {
  readonly bits: Record<DeletableType, Uint8Array>;

  constructor(sizes: Record<DeletableType, number>) {
    this.bits = {
      song: new Uint8Array((sizes.song + 8) >>> 3),
      album: new Uint8Array((sizes.album + 8) >>> 3),
      artist: new Uint8Array((sizes.artist + 8) >>> 3),
    };
  }

  has(type: DeletableType, o: number): boolean {
    return (this.bits[type][o >>> 3] & (1 << (o & 7))) !== 0;
  }

  /** Marks it; false when it was marked already. */
  add(type: DeletableType, o: number): boolean {
    if (this.has(type, o)) return false;
    this.bits[type][o >>> 3] |= 1 << (o & 7);
    return true;
  }

  list(type: DeletableType): Uint32Array {
    const out: number[] = [];
    const bits = this.bits[type];
    for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) for (let b = 0; b < 8; b++) if (bits[i] & (1 << b)) out.push(i * 8 + b);
    return Uint32Array.from(out);
  }
}

/** The stored ordinals a key names (every match, taken down or not). */
function ordinalsOf(cat: Catalog, key: TakedownKey): { type: DeletableType; ordinals: readonly number[] } | null {
  const keys = (name: string) => cat.snapshot.keys(name);
  if (key.kind === 'isrc') return { type: 'song', ordinals: keys('song.isrc').getAll(key.value) };
  if (key.kind === 'upc') return { type: 'album', ordinals: keys('album.upc').getAll(key.value) };
  if (key.kind === 'album') {
    // A DDEX release's id: the album id its import made (the GTIN-13 of its ICPN, its GRid, ...),
    // else, for a catalog that came another way, the albums with that ICPN as UPC.
    const o = keys('album.id').get(key.value);
    if (o >= 0) return { type: 'album', ordinals: [o] };
    const gtin = normalizeGtin13(key.value);
    return { type: 'album', ordinals: gtin ? keys('album.upc').getAll(gtin) : [] };
  }
  const parsed = parseCatalogId(key.value);
  if (!parsed) return null;
  const o = keys(`${parsed.type}.omm`).get(parsed.ommId);
  return { type: parsed.type, ordinals: o < 0 ? [] : [o] };
}

/**
 * Resolves the keys against the snapshot and decides the deletes set, by the rules a full
 * compile of the raw catalog without those releases would follow:
 * - an artist taken down takes every album and song crediting it;
 * - an album taken down takes its tracks, except those on another album still in service;
 * - an artist left with no song and no album in service goes too (the importers drop an artist
 *   nothing credits).
 */
export function planTakedown(cat: Catalog, keys: readonly TakedownKey[]): TakedownPlan {
  const snapshot = cat.snapshot;
  const counts = snapshot.manifest.counts;
  const marks = new Marks({ song: counts.songs ?? 0, album: counts.albums ?? 0, artist: counts.artists ?? 0 });
  for (const type of DELETABLE_TYPES) for (const o of cat.deletes?.list(type) ?? []) marks.add(type, o);
  const before = Object.fromEntries(DELETABLE_TYPES.map((t) => [t, cat.deletes?.count(t) ?? 0])) as Record<DeletableType, number>;
  const named = { song: 0, album: 0, artist: 0 };
  const alreadyDown: string[] = [];
  const unknown: string[] = [];
  const fresh: Record<DeletableType, number[]> = { song: [], album: [], artist: [] };
  for (const key of keys) {
    const found = ordinalsOf(cat, key);
    if (!found || found.ordinals.length === 0) {
      unknown.push(keyText(key));
      continue;
    }
    let any = false;
    for (const o of found.ordinals) {
      if (marks.add(found.type, o)) {
        named[found.type]++;
        fresh[found.type].push(o);
        any = true;
      }
    }
    if (!any) alreadyDown.push(keyText(key));
  }
  const relation = (name: string): Adjacency => snapshot.arrays('relations').adjacency(name);
  expand(marks, fresh, relation);
  const set = { song: marks.list('song'), album: marks.list('album'), artist: marks.list('artist') };
  const songFiles = relation('song.files');
  const songLyrics = relation('song.lyrics');
  let files = 0;
  let lyrics = 0;
  for (const s of set.song) {
    files += songFiles.count(s);
    lyrics += songLyrics.count(s);
  }
  return {
    set,
    added: { song: set.song.length - before.song, album: set.album.length - before.album, artist: set.artist.length - before.artist },
    named,
    alreadyDown,
    unknown,
    // Every album and artist has a station of its own (the compile's station plan): they go with them.
    counts: { songs: set.song.length, albums: set.album.length, artists: set.artist.length, stations: set.album.length + set.artist.length, files, lyrics },
  };
}

/** What the newly marked take with them (planTakedown's rules), marked in `marks`. */
function expand(marks: Marks, fresh: Record<DeletableType, number[]>, relation: (name: string) => Adjacency): void {
  const artistAlbums = relation('artist.albums');
  const artistSongs = relation('artist.songs');
  for (const a of fresh.artist) {
    for (const al of artistAlbums.targetsOf(a)) if (marks.add('album', al)) fresh.album.push(al);
    for (const s of artistSongs.targetsOf(a)) if (marks.add('song', s)) fresh.song.push(s);
  }
  const albumTracks = relation('album.tracks');
  const songAlbums = relation('song.albums');
  for (const al of fresh.album) {
    for (const s of albumTracks.targetsOf(al)) {
      if (marks.has('song', s)) continue;
      const elsewhere = songAlbums.targetsOf(s).some((other) => !marks.has('album', other));
      if (!elsewhere && marks.add('song', s)) fresh.song.push(s);
    }
  }
  // Artists credited on what went, left with nothing in service.
  const songArtists = relation('song.artists');
  const albumArtists = relation('album.artists');
  const credited = new Set<number>();
  for (const s of fresh.song) for (const a of songArtists.targetsOf(s)) credited.add(a);
  for (const al of fresh.album) for (const a of albumArtists.targetsOf(al)) credited.add(a);
  for (const a of credited) {
    if (marks.has('artist', a)) continue;
    const live = artistSongs.targetsOf(a).some((s) => !marks.has('song', s)) || artistAlbums.targetsOf(a).some((al) => !marks.has('album', al));
    if (!live) marks.add('artist', a);
  }
}
