import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { withGs1CheckDigit } from '../raw/codes.js';
import { RawCsvWriter } from '../raw/csv-writer.js';
import { RAW_FILES, type RawFileName } from '../raw/schema.js';
import { Prng, Zipf } from './prng.js';
import { GENRES, ISRC_COUNTRIES, LABELS, SCRIPTS, VERSION_SUFFIXES, type Script } from './vocabulary.js';

export interface GenerateOptions {
  readonly songs: number;
  readonly seed?: number;
  readonly out: string;
  readonly onProgress?: (songsDone: number, total: number) => void;
}

export interface GenerateSummary {
  readonly outDir: string;
  readonly rows: Record<string, number>;
  readonly seconds: number;
}

const ADDED_FROM = Date.UTC(2015, 0, 1);
const ADDED_SPAN = Date.UTC(2026, 9, 1) - ADDED_FROM;

/**
 * Writes a synthetic raw catalog of `songs` songs, deterministically from `seed`: names in
 * several scripts with Zipf word frequencies, 1-3 credited artists per song, albums of 1-30
 * tracks (plus compilations that reuse songs), valid unique ISRCs (a few shared), UPC-A and EAN-13
 * with GS1 check digits, power-law popularity, files for ~60% of songs and lyrics for ~20%,
 * playlists, custom stations and explore groups. Rows stream to the files: memory holds only
 * per-artist and per-album numbers.
 */
export async function generateCatalog(options: GenerateOptions): Promise<GenerateSummary> {
  const started = Date.now();
  const total = Math.max(1, Math.floor(options.songs));
  const seed = options.seed ?? 1;
  mkdirSync(options.out, { recursive: true });
  for (const spec of RAW_FILES) rmSync(join(options.out, `${spec.file}.csv`), { force: true });
  const writers = new Map<RawFileName, RawCsvWriter>();
  const w = (file: RawFileName) => {
    let writer = writers.get(file);
    if (!writer) writers.set(file, (writer = new RawCsvWriter(options.out, file)));
    return writer;
  };
  const rng = (stream: number) => new Prng(seed, stream);
  const scriptWeights = SCRIPTS.reduce((sum, s) => sum + s.weight, 0);
  const zipfByScript = new Map<Script, Zipf>(SCRIPTS.map((s) => [s, new Zipf(s.words.length)]));
  const pickScript = (r: Prng): number => {
    let u = r.next() * scriptWeights;
    for (let i = 0; i < SCRIPTS.length; i++) if ((u -= SCRIPTS[i].weight) < 0) return i;
    return 0;
  };
  const words = (r: Prng, script: Script, min: number, max: number): string => {
    const n = r.int(min, max);
    const zipf = zipfByScript.get(script)!;
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const word = script.words[zipf.sample(r)];
      parts.push(script.joiner === ' ' && script.name !== 'arabic' ? word[0].toUpperCase() + word.slice(1) : word);
    }
    return parts.join(script.joiner);
  };
  const popularity = (r: Prng) => Math.floor(100000 / Math.pow(1 + r.next() * 999, 1.6)); // power law, 0..100000
  const addedAt = (r: Prng) => new Date(ADDED_FROM + Math.floor(r.next() * (ADDED_SPAN / 1000)) * 1000).toISOString().replace('.000Z', 'Z');
  const releaseDate = (r: Prng, year: number) => {
    const precision = r.next();
    const month = String(r.int(1, 12)).padStart(2, '0');
    if (precision < 0.05) return String(year);
    if (precision < 0.2) return `${year}-${month}`;
    return `${year}-${month}-${String(r.int(1, 28)).padStart(2, '0')}`;
  };

  // Artists.
  const artistCount = Math.ceil(total / 20);
  const artistScript = new Uint8Array(artistCount);
  const artistGenre = new Uint8Array(artistCount);
  const artistNames: string[] = new Array(artistCount);
  const ra = rng(1);
  for (let a = 0; a < artistCount; a++) {
    const script = pickScript(ra);
    artistScript[a] = script;
    artistGenre[a] = ra.int(0, GENRES.length - 1);
    const name = ra.chance(0.3) ? `The ${words(ra, SCRIPTS[0], 1, 2)}` : words(ra, SCRIPTS[script], 1, 3);
    artistNames[a] = name;
    const genres = ra.chance(0.4) ? [GENRES[artistGenre[a]], GENRES[ra.int(0, GENRES.length - 1)]] : [GENRES[artistGenre[a]]];
    w('artists').write({
      id: `ar${a}`,
      name,
      artwork_url: ra.chance(0.8) ? `https://img.example.com/artists/ar${a}.jpg` : null,
      genres: [...new Set(genres)],
      popularity: popularity(ra),
      date_added: addedAt(ra),
    });
  }

  // Albums: sizes 1..30 with mean ~10, scaled so that they hold exactly `total` songs.
  const albumCount = Math.ceil(total / 10);
  const rs = rng(2);
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
  const albumYear = new Uint16Array(albumCount);
  const rb = rng(3);
  const rt = rng(4);
  const rf = rng(5);
  const rl = rng(6);
  let previousIsrc = '';
  for (let al = 0; al < albumCount; al++) {
    const artist = Math.min(artistCount - 1, Math.floor((al * artistCount) / albumCount));
    const script = SCRIPTS[artistScript[artist]];
    const year = 2026 - Math.floor(Math.pow(rb.next(), 2) * 66);
    albumYear[al] = year;
    const albumDate = releaseDate(rb, year);
    const upc = al % 2 === 0 ? withGs1CheckDigit(`8${String(al).padStart(10, '0')}`) : withGs1CheckDigit(`40${String(al).padStart(10, '0')}`);
    const size = albumStart[al + 1] - albumStart[al];
    w('albums').write({
      id: `al${al}`,
      name: size === 1 ? `${words(rb, script, 1, 3)} - Single` : words(rb, script, 1, 4),
      upc,
      label: rb.chance(0.7) ? rb.pick(LABELS) : null,
      release_date: albumDate,
      artwork_url: `https://img.example.com/albums/al${al}/{w}x{h}.jpg`,
      genres: [GENRES[artistGenre[artist]]],
      popularity: popularity(rb),
      date_added: addedAt(rb),
    });
    w('album_artists').write({ album_id: `al${al}`, artist_id: `ar${artist}`, position: 1 });
    const coArtist = rb.chance(0.12) ? rb.int(0, artistCount - 1) : -1;
    if (coArtist >= 0 && coArtist !== artist) w('album_artists').write({ album_id: `al${al}`, artist_id: `ar${coArtist}`, position: 2 });

    for (let s = albumStart[al]; s < albumStart[al + 1]; s++) {
      const id = `s${s}`;
      const featured: number[] = [];
      const extra = rt.next() < 0.7 ? 0 : rt.next() < 0.75 ? 1 : 2;
      for (let k = 0; k < extra; k++) {
        const other = rt.int(0, artistCount - 1);
        if (other !== artist && !featured.includes(other)) featured.push(other);
      }
      let name = words(rt, script, 1, 5);
      if (featured.length > 0 && rt.chance(0.3)) name += ` (feat. ${artistNames[featured[0]]})`;
      if (rt.chance(0.05)) name += rt.pick(VERSION_SUFFIXES);
      const isrc = previousIsrc && rt.chance(0.005)
        ? previousIsrc
        : `${ISRC_COUNTRIES[artist % ISRC_COUNTRIES.length]}${Math.floor(s / 100000).toString(36).toUpperCase().padStart(3, '0')}${String(year % 100).padStart(2, '0')}${String(s % 100000).padStart(5, '0')}`;
      previousIsrc = isrc;
      const duration = rt.int(90_000, 420_000);
      w('songs').write({
        id,
        name,
        isrc,
        duration_ms: duration,
        genres: rt.chance(0.3) ? [GENRES[rt.chance(0.8) ? artistGenre[artist] : rt.int(0, GENRES.length - 1)]] : null,
        popularity: popularity(rt),
        date_added: addedAt(rt),
      });
      w('album_tracks').write({ album_id: `al${al}`, song_id: id, disc_number: size > 20 && s - albumStart[al] >= size / 2 ? 2 : 1, track_number: size > 20 && s - albumStart[al] >= size / 2 ? s - albumStart[al] - Math.ceil(size / 2) + 1 : s - albumStart[al] + 1 });
      [artist, ...featured].forEach((credited, i) => w('song_artists').write({ song_id: id, artist_id: `ar${credited}`, position: i + 1 }));

      if (rf.chance(0.6)) {
        const fileCount = rf.int(1, 3);
        const formats = [
          { ext: 'flac', mime: 'audio/flac', codec: 'flac', lossless: true, kbps: rf.int(700, 1100) },
          { ext: 'mp3', mime: 'audio/mpeg', codec: 'mp3', lossless: false, kbps: 320 },
          { ext: 'm4a', mime: 'audio/mp4', codec: 'aac', lossless: false, kbps: 256 },
        ].slice(0, fileCount);
        const preferred = rf.int(0, fileCount - 1);
        formats.forEach((f, i) => {
          w('files').write({
            id: `${id}-${f.ext}`,
            song_id: id,
            mime_type: f.mime,
            codec: f.codec,
            lossless: f.lossless,
            bitrate_kbps: f.kbps,
            sample_rate_hz: f.lossless ? 48000 : 44100,
            channels: 2,
            size_bytes: Math.round((f.kbps * 1000 * duration) / 8000),
            duration_ms: duration,
            stream_url: `https://cdn.example.com/stream/${id}.${f.ext}`,
            download_url: rf.chance(0.5) ? `https://cdn.example.com/download/${id}.${f.ext}` : null,
            preferred: i === preferred,
          });
        });
      }
      if (rl.chance(0.2)) {
        const text = Array.from({ length: rl.int(4, 12) }, () => words(rl, script, 3, 7)).join('\n');
        w('lyrics').write({
          song_id: id,
          language: script.language,
          text,
          ttml: rl.chance(0.5) ? `<tt xmlns="http://www.w3.org/ns/ttml"><body><div>${text.split('\n').map((l, i) => `<p begin="${i * 4}s">${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`).join('')}</div></body></tt>` : null,
        });
        if (script.language !== 'en' && rl.chance(0.3)) w('lyrics').write({ song_id: id, language: 'en', text: words(rl, SCRIPTS[0], 5, 12), ttml: null });
      }
      if ((s + 1) % 10000 === 0) options.onProgress?.(s + 1, total);
    }
  }

  // Compilations: songs that sit on a second album.
  const rc = rng(7);
  const compilations = Math.max(1, Math.floor(albumCount / 100));
  for (let c = 0; c < compilations; c++) {
    const id = `comp${c}`;
    w('albums').write({ id, name: `${rc.pick(['Best of', 'Hits', 'Essentials', 'Collection'])} ${c + 1}`, upc: withGs1CheckDigit(`50${String(c).padStart(10, '0')}`), release_date: releaseDate(rc, 2000 + (c % 26)), artwork_url: `https://img.example.com/albums/${id}.jpg`, popularity: popularity(rc) });
    w('album_artists').write({ album_id: id, artist_id: `ar${rc.int(0, artistCount - 1)}`, position: 1 });
    const used = new Set<number>();
    const tracks = rc.int(10, 20);
    for (let t = 1; t <= tracks; t++) {
      const song = rc.int(0, total - 1);
      if (used.has(song)) continue;
      used.add(song);
      w('album_tracks').write({ album_id: id, song_id: `s${song}`, disc_number: 1, track_number: t });
    }
  }

  // Playlists, custom stations and explore groups draw songs with Zipf popularity over song ids.
  const rp = rng(8);
  const songZipf = new Zipf(Math.min(total, 200_000), 0.9);
  const playlistCount = Math.max(5, Math.floor(total / 1000));
  for (let p = 0; p < playlistCount; p++) {
    const script = SCRIPTS[pickScript(rp)];
    w('playlists').write({ id: `pl${p}`, name: words(rp, script, 1, 4), curator_name: rp.chance(0.5) ? words(rp, SCRIPTS[0], 1, 2) : 'Editors', description: rp.chance(0.6) ? words(rp, script, 4, 10) : null, artwork_url: `https://img.example.com/playlists/pl${p}.jpg`, genres: [rp.pick(GENRES)], popularity: popularity(rp), date_added: addedAt(rp) });
    const length = rp.int(10, 100);
    for (let t = 1; t <= length; t++) w('playlist_tracks').write({ playlist_id: `pl${p}`, song_id: `s${songZipf.sample(rp)}`, position: t });
  }
  for (let st = 0; st < 5; st++) {
    w('stations').write({ id: `mix${st}`, name: `${rp.pick(['Morning', 'Focus', 'Workout', 'Chill', 'Party'])} Mix ${st + 1}`, description: 'A hand-picked mix', artwork_url: null });
    for (let t = 1; t <= 25; t++) w('station_tracks').write({ station_id: `mix${st}`, song_id: `s${songZipf.sample(rp)}`, position: t });
  }
  w('explore_groups').write({ id: 'picks', title: "Editors' Picks", type: 'song', position: 1 });
  w('explore_groups').write({ id: 'featured-albums', title: 'Featured Albums', type: 'album', position: 2 });
  w('explore_groups').write({ id: 'mixes', title: 'Mixes', type: 'station', position: 3 });
  const picked = new Set<number>();
  for (let i = 0; picked.size < Math.min(25, total) && i < 1000; i++) picked.add(songZipf.sample(rp));
  [...picked].forEach((s, i) => w('explore_items').write({ group_id: 'picks', resource_id: `s${s}`, position: i + 1 }));
  for (let i = 0; i < Math.min(20, albumCount); i++) w('explore_items').write({ group_id: 'featured-albums', resource_id: `al${i * Math.floor(albumCount / Math.min(20, albumCount))}`, position: i + 1 });
  for (let st = 0; st < 5; st++) w('explore_items').write({ group_id: 'mixes', resource_id: `mix${st}`, position: st + 1 });

  options.onProgress?.(total, total);
  const rows: Record<string, number> = {};
  for (const [file, writer] of writers) {
    writer.close();
    rows[file] = writer.rows;
  }
  return { outDir: options.out, rows, seconds: (Date.now() - started) / 1000 };
}

