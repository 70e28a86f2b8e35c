import { withGs1CheckDigit } from '../raw/codes.js';
import { planCompilations } from './compilations.js';
import { HeavyTail } from './heavy-tail.js';
import type { CatalogShape, CatalogWriter, GenSong, GenTrack } from './model.js';
import { Namer } from './names.js';
import { Prng } from './prng.js';
import { GENRES, ISRC_COUNTRIES, LABELS, SCRIPTS, VERSION_SUFFIXES } from './vocabulary.js';

/**
 * Draws the synthetic catalog of `songs` songs from `seed` and hands it to the writer made by
 * `makeWriter`: every artist, then every album with its songs, then the compilations. Each part
 * draws from its own PRNG stream (artists 1, album sizes 2, albums 3, songs 4, compilations 7;
 * the raw writer's files 5, lyrics 6 and playlists 8), so the values depend only on the seed.
 * Memory holds per-artist numbers, album boundaries, and the data of the songs compilations reuse.
 */
export function generateModel(
  songs: number,
  seed: number,
  makeWriter: (shape: CatalogShape) => CatalogWriter,
  onProgress?: (songsDone: number, total: number) => void,
  heavyTail = false,
): Record<string, number> {
  const total = Math.max(1, Math.floor(songs));
  const namer = new Namer();
  const rng = (stream: number) => new Prng(seed, stream);
  const artistCount = Math.ceil(total / 20);
  const albumCount = Math.ceil(total / 10);
  const compilationCount = Math.max(1, Math.floor(albumCount / 100));
  const tail = heavyTail ? new HeavyTail(seed, artistCount) : null;
  const tailArtists = tail?.artists(namer) ?? [];
  const artistNames: string[] = new Array(artistCount);
  for (const a of tailArtists) artistNames[a.index] = a.name;
  const artistGenre = new Uint8Array(artistCount + tailArtists.length);
  for (const a of tailArtists) artistGenre[a.index] = GENRES.indexOf(a.genres[0] as (typeof GENRES)[number]);
  // The tail's box sets come after the compilations, numbered on from them.
  const boxSets = tail?.boxSets(namer, albumCount, compilationCount, total) ?? [];
  const shape: CatalogShape = {
    seed,
    songs: total,
    artistCount: artistCount + tailArtists.length,
    albumCount,
    compilationCount: compilationCount + boxSets.length,
    namer,
    artistName: (a) => artistNames[a],
    artistGenre: (a) => GENRES[artistGenre[a]],
  };
  const draw: Draw = {
    total,
    artistCount,
    albumCount,
    namer,
    writer: makeWriter(shape),
    artistScript: new Uint8Array(artistCount),
    artistGenre,
    artistNames,
    kept: new Map<number, GenSong | null>(),
    previousIsrc: '',
    tail,
  };
  // Compilations first (their own stream): which songs they reuse, so those alone are kept.
  const plans = [...planCompilations(rng(7), namer, compilationCount, artistCount, total), ...boxSets];
  for (const plan of plans) for (const pick of plan.picks) draw.kept.set(pick.song, null);
  drawArtists(draw, rng(1));
  for (const a of tailArtists) draw.writer.artist(a);
  const albumStart = albumBoundaries(rng(2), albumCount, total);
  const rb = rng(3);
  const rt = rng(4);
  for (let al = 0; al < albumCount; al++) drawAlbum(draw, al, albumStart, rb, rt, onProgress);
  writeCompilations(draw, plans);
  draw.kept.clear();
  onProgress?.(total, total);
  return draw.writer.end();
}

/** What the drawing phases share: the sizes, the writer, the per-artist numbers and the songs compilations reuse. */
interface Draw {
  readonly total: number;
  readonly artistCount: number;
  readonly albumCount: number;
  readonly namer: Namer;
  readonly writer: CatalogWriter;
  readonly artistScript: Uint8Array;
  readonly artistGenre: Uint8Array;
  readonly artistNames: string[];
  readonly kept: Map<number, GenSong | null>;
  /** The ISRC of the song drawn last: a few songs repeat it, as real catalogs do. */
  previousIsrc: string;
  /** `--heavy-tail`: generic titles, covers, ubiquitous artists and box sets; null without it. */
  readonly tail: HeavyTail | null;
}

/** Every artist, from stream 1. */
function drawArtists(draw: Draw, ra: Prng): void {
  const { namer, artistScript, artistGenre, artistNames, writer } = draw;
  for (let a = 0; a < draw.artistCount; a++) {
    const script = namer.pickScript(ra);
    artistScript[a] = script;
    artistGenre[a] = ra.int(0, GENRES.length - 1);
    const name = ra.chance(0.3) ? `The ${namer.words(ra, SCRIPTS[0], 1, 2)}` : namer.words(ra, SCRIPTS[script], 1, 3);
    artistNames[a] = name;
    const genres = ra.chance(0.4) ? [GENRES[artistGenre[a]], GENRES[ra.int(0, GENRES.length - 1)]] : [GENRES[artistGenre[a]]];
    const artworkUrl = ra.chance(0.8) ? `https://img.example.com/artists/ar${a}.jpg` : null;
    writer.artist({
      index: a,
      id: `ar${a}`,
      name,
      script,
      artworkUrl,
      genres: [...new Set(genres)],
      popularity: namer.popularity(ra),
      dateAdded: namer.addedAt(ra),
    });
  }
}

/** Where each album's songs start: sizes 1..30 with mean ~10 (stream 2), scaled so that they hold exactly `total` songs. */
function albumBoundaries(rs: Prng, albumCount: number, total: number): Uint32Array {
  const sizes = new Float64Array(albumCount);
  let sizeSum = 0;
  for (let al = 0; al < albumCount; al++) {
    const u = rs.next();
    sizes[al] = u < 0.25 ? rs.int(1, 4) : u < 0.9 ? rs.int(8, 14) : rs.int(15, 27);
    sizeSum += sizes[al];
  }
  const albumStart = new Uint32Array(albumCount + 1);
  let cumulative = 0;
  for (let al = 0; al < albumCount; al++) {
    cumulative += sizes[al];
    const target = Math.round((cumulative / sizeSum) * total);
    // Every album keeps at least one song and leaves at least one for each album after it.
    albumStart[al + 1] = Math.min(total - (albumCount - al - 1), Math.max(albumStart[al] + 1, target));
  }
  return albumStart;
}

/** Album `al` (stream 3) and its songs (stream 4), handed to the writer. */
function drawAlbum(draw: Draw, al: number, albumStart: Uint32Array, rb: Prng, rt: Prng, onProgress?: (songsDone: number, total: number) => void): void {
  const { namer, artistCount, artistGenre } = draw;
  const artist = Math.min(artistCount - 1, Math.floor((al * artistCount) / draw.albumCount));
  const script = SCRIPTS[draw.artistScript[artist]];
  const year = 2026 - Math.floor(Math.pow(rb.next(), 2) * 66);
  const releaseDate = namer.releaseDate(rb, year);
  const upc = al % 2 === 0 ? withGs1CheckDigit(`8${String(al).padStart(10, '0')}`) : withGs1CheckDigit(`40${String(al).padStart(10, '0')}`);
  const start = albumStart[al];
  const size = albumStart[al + 1] - start;
  const name = size === 1 ? `${namer.words(rb, script, 1, 3)} - Single` : namer.words(rb, script, 1, 4);
  const label = rb.chance(0.7) ? rb.pick(LABELS) : null;
  const popularity = namer.popularity(rb);
  const dateAdded = namer.addedAt(rb);
  const coArtist = rb.chance(0.12) ? rb.int(0, artistCount - 1) : -1;

  const tracks: GenTrack[] = [];
  for (let s = start; s < albumStart[al + 1]; s++) {
    const song = drawSong(draw, s, artist, script, year, releaseDate, rt);
    if (draw.kept.has(s)) draw.kept.set(s, song);
    const secondDisc = size > 20 && s - start >= size / 2;
    tracks.push({ song, disc: secondDisc ? 2 : 1, track: secondDisc ? s - start - Math.ceil(size / 2) + 1 : s - start + 1 });
    if ((s + 1) % 10000 === 0) onProgress?.(s + 1, draw.total);
  }
  draw.writer.release({
    kind: 'album',
    index: al,
    id: `al${al}`,
    name,
    upc,
    label,
    releaseDate,
    artworkUrl: `https://img.example.com/albums/al${al}/{w}x{h}.jpg`,
    genres: [GENRES[artistGenre[artist]]],
    popularity,
    dateAdded,
    artists: coArtist >= 0 && coArtist !== artist ? [artist, coArtist] : [artist],
    tracks,
  });
}

/** Song `s` of an album by `artist` (stream 4): featured artists, name, ISRC, duration, genres. */
function drawSong(draw: Draw, s: number, artist: number, script: (typeof SCRIPTS)[number], year: number, releaseDate: string, rt: Prng): GenSong {
  const { namer, artistCount, artistGenre, artistNames } = draw;
  const featured: number[] = [];
  const extra = rt.next() < 0.7 ? 0 : rt.next() < 0.75 ? 1 : 2;
  for (let k = 0; k < extra; k++) {
    const other = rt.int(0, artistCount - 1);
    if (other !== artist && !featured.includes(other)) featured.push(other);
  }
  const baseName = namer.words(rt, script, 1, 5);
  let songName = baseName;
  if (featured.length > 0 && rt.chance(0.3)) songName += ` (feat. ${artistNames[featured[0]]})`;
  let versionSuffix: string | null = null;
  if (rt.chance(0.05)) songName += versionSuffix = rt.pick(VERSION_SUFFIXES);
  const isrc =
    draw.previousIsrc && rt.chance(0.005)
      ? draw.previousIsrc
      : `${ISRC_COUNTRIES[artist % ISRC_COUNTRIES.length]}${Math.floor(s / 100000)
          .toString(36)
          .toUpperCase()
          .padStart(3, '0')}${String(year % 100).padStart(2, '0')}${String(s % 100000).padStart(5, '0')}`;
  draw.previousIsrc = isrc;
  const durationMs = rt.int(90_000, 420_000);
  const genres = rt.chance(0.3) ? [GENRES[rt.chance(0.8) ? artistGenre[artist] : rt.int(0, GENRES.length - 1)]] : null;
  const popularity = namer.popularity(rt);
  const dateAdded = namer.addedAt(rt);
  const credits = [artist, ...featured];
  if (draw.tail) {
    // A generic title or a cover keeps the version drawn (a live "Silent Night"), not the featuring.
    const tail = draw.tail.song(baseName, popularity);
    if (tail.name !== null) songName = tail.name + (versionSuffix ?? '');
    if (tail.credit >= 0) credits.push(tail.credit);
  }
  return {
    index: s,
    id: `s${s}`,
    name: songName,
    versionSuffix,
    isrc,
    durationMs,
    genres,
    popularity,
    dateAdded,
    credits,
    script,
    firstReleaseDate: releaseDate,
  };
}

/** The compilations: songs that sit on a second album. */
function writeCompilations(draw: Draw, plans: ReturnType<typeof planCompilations>): void {
  for (const plan of plans) {
    draw.writer.release({
      kind: 'compilation',
      index: plan.index,
      id: plan.id,
      name: plan.name,
      upc: plan.upc,
      label: null,
      releaseDate: plan.releaseDate,
      artworkUrl: plan.artworkUrl,
      genres: null,
      popularity: plan.popularity,
      dateAdded: null,
      artists: [plan.artist],
      tracks: plan.picks.map((pick) => ({ song: draw.kept.get(pick.song)!, disc: 1, track: pick.track })),
    });
  }
}
