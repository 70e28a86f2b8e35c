import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { RawCsvWriter } from '../raw/csv-writer.js';
import { RAW_FILES, type RawFileName } from '../raw/schema.js';
import type { CatalogShape, CatalogWriter, GenArtist, GenRelease, GenSong } from './model.js';
import { Prng, Zipf } from './prng.js';
import { GENRES, SCRIPTS } from './vocabulary.js';

/**
 * The raw CSV catalog (docs/raw-format.md), byte for byte what `omm generate` has always written
 * for a seed. Besides the model it draws what only the raw format has: files (stream 5) and
 * lyrics (stream 6) per song, and at the end playlists, custom stations and explore groups
 * (stream 8).
 */
export class RawCatalogWriter implements CatalogWriter {
  private readonly writers = new Map<RawFileName, RawCsvWriter>();
  private readonly rf: Prng;
  private readonly rl: Prng;

  constructor(
    private readonly out: string,
    private readonly shape: CatalogShape,
  ) {
    for (const spec of RAW_FILES) rmSync(join(out, `${spec.file}.csv`), { force: true });
    this.rf = new Prng(shape.seed, 5);
    this.rl = new Prng(shape.seed, 6);
  }

  private w(file: RawFileName): RawCsvWriter {
    let writer = this.writers.get(file);
    if (!writer) this.writers.set(file, (writer = new RawCsvWriter(this.out, file)));
    return writer;
  }

  artist(a: GenArtist): void {
    this.w('artists').write({ id: a.id, name: a.name, artwork_url: a.artworkUrl, genres: a.genres, popularity: a.popularity, date_added: a.dateAdded });
  }

  release(r: GenRelease): void {
    if (r.kind === 'album') {
      this.w('albums').write({
        id: r.id,
        name: r.name,
        upc: r.upc,
        label: r.label,
        release_date: r.releaseDate,
        artwork_url: r.artworkUrl,
        genres: r.genres,
        popularity: r.popularity,
        date_added: r.dateAdded,
      });
    } else {
      this.w('albums').write({ id: r.id, name: r.name, upc: r.upc, release_date: r.releaseDate, artwork_url: r.artworkUrl, popularity: r.popularity });
    }
    r.artists.forEach((artist, i) => this.w('album_artists').write({ album_id: r.id, artist_id: `ar${artist}`, position: i + 1 }));
    for (const { song, disc, track } of r.tracks) {
      // A compilation reuses songs: only its track rows are new.
      if (r.kind === 'album') this.song(song);
      this.w('album_tracks').write({ album_id: r.id, song_id: song.id, disc_number: disc, track_number: track });
      if (r.kind === 'album') {
        song.credits.forEach((credited, i) => this.w('song_artists').write({ song_id: song.id, artist_id: `ar${credited}`, position: i + 1 }));
        this.filesAndLyrics(song);
      }
    }
  }

  private song(s: GenSong): void {
    this.w('songs').write({
      id: s.id,
      name: s.name,
      isrc: s.isrc,
      duration_ms: s.durationMs,
      genres: s.genres,
      popularity: s.popularity,
      date_added: s.dateAdded,
    });
  }

  private filesAndLyrics(song: GenSong): void {
    const { rf, rl } = this;
    const { id, durationMs: duration, script } = song;
    const namer = this.shape.namer;
    if (rf.chance(0.6)) {
      const fileCount = rf.int(1, 3);
      const formats = [
        { ext: 'flac', mime: 'audio/flac', codec: 'flac', lossless: true, kbps: rf.int(700, 1100) },
        { ext: 'mp3', mime: 'audio/mpeg', codec: 'mp3', lossless: false, kbps: 320 },
        { ext: 'm4a', mime: 'audio/mp4', codec: 'aac', lossless: false, kbps: 256 },
      ].slice(0, fileCount);
      const preferred = rf.int(0, fileCount - 1);
      formats.forEach((f, i) => {
        this.w('files').write({
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
      const text = Array.from({ length: rl.int(4, 12) }, () => namer.words(rl, script, 3, 7)).join('\n');
      this.w('lyrics').write({
        song_id: id,
        language: script.language,
        text,
        ttml: rl.chance(0.5)
          ? `<tt xmlns="http://www.w3.org/ns/ttml"><body><div>${text
              .split('\n')
              .map((l, i) => `<p begin="${i * 4}s">${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
              .join('')}</div></body></tt>`
          : null,
      });
      if (script.language !== 'en' && rl.chance(0.3))
        this.w('lyrics').write({ song_id: id, language: 'en', text: namer.words(rl, SCRIPTS[0], 5, 12), ttml: null });
    }
  }

  /** Playlists, custom stations and explore groups draw songs with Zipf popularity over song ids. */
  private extras(): void {
    const { namer, songs: total, albumCount } = this.shape;
    const w = (file: RawFileName) => this.w(file);
    const rp = new Prng(this.shape.seed, 8);
    const songZipf = new Zipf(Math.min(total, 200_000), 0.9);
    const playlistCount = Math.max(5, Math.floor(total / 1000));
    for (let p = 0; p < playlistCount; p++) {
      const script = SCRIPTS[namer.pickScript(rp)];
      w('playlists').write({
        id: `pl${p}`,
        name: namer.words(rp, script, 1, 4),
        curator_name: rp.chance(0.5) ? namer.words(rp, SCRIPTS[0], 1, 2) : 'Editors',
        description: rp.chance(0.6) ? namer.words(rp, script, 4, 10) : null,
        artwork_url: `https://img.example.com/playlists/pl${p}.jpg`,
        genres: [rp.pick(GENRES)],
        popularity: namer.popularity(rp),
        date_added: namer.addedAt(rp),
      });
      const length = rp.int(10, 100);
      for (let t = 1; t <= length; t++) w('playlist_tracks').write({ playlist_id: `pl${p}`, song_id: `s${songZipf.sample(rp)}`, position: t });
    }
    for (let st = 0; st < 5; st++) {
      w('stations').write({
        id: `mix${st}`,
        name: `${rp.pick(['Morning', 'Focus', 'Workout', 'Chill', 'Party'])} Mix ${st + 1}`,
        description: 'A hand-picked mix',
        artwork_url: null,
      });
      for (let t = 1; t <= 25; t++) w('station_tracks').write({ station_id: `mix${st}`, song_id: `s${songZipf.sample(rp)}`, position: t });
    }
    w('explore_groups').write({ id: 'picks', title: "Editors' Picks", type: 'song', position: 1 });
    w('explore_groups').write({ id: 'featured-albums', title: 'Featured Albums', type: 'album', position: 2 });
    w('explore_groups').write({ id: 'mixes', title: 'Mixes', type: 'station', position: 3 });
    const picked = new Set<number>();
    for (let i = 0; picked.size < Math.min(25, total) && i < 1000; i++) picked.add(songZipf.sample(rp));
    [...picked].forEach((s, i) => w('explore_items').write({ group_id: 'picks', resource_id: `s${s}`, position: i + 1 }));
    for (let i = 0; i < Math.min(20, albumCount); i++)
      w('explore_items').write({ group_id: 'featured-albums', resource_id: `al${i * Math.floor(albumCount / Math.min(20, albumCount))}`, position: i + 1 });
    for (let st = 0; st < 5; st++) w('explore_items').write({ group_id: 'mixes', resource_id: `mix${st}`, position: st + 1 });
  }

  end(): Record<string, number> {
    this.extras();
    const rows: Record<string, number> = {};
    for (const [file, writer] of this.writers) {
      writer.close();
      rows[file] = writer.rows;
    }
    return rows;
  }
}
