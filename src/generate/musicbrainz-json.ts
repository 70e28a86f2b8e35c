/**
 * MusicBrainz JSON of the synthetic catalog, shaped like a line of the JSON dumps (a WS/2 lookup
 * with its includes): releases with their media, tracks, recordings and artist credits, and
 * artists. Every MBID is derived from the seed and the entity (mbid.ts), so a song on an album and
 * on a compilation is one recording.
 */
import { syntheticIsni } from './isni.js';
import type { CatalogShape, GenArtist, GenRelease, GenSong } from './model.js';
import { mbid } from './mbid.js';
import { GENRES, LABELS } from './vocabulary.js';

/** ISO 639-3 language and ISO 15924 script of the titles, by vocabulary script. */
const TEXT_REPRESENTATION: Readonly<Record<string, { language: string; script: string }>> = {
  latin: { language: 'eng', script: 'Latn' },
  accented: { language: 'spa', script: 'Latn' },
  cyrillic: { language: 'rus', script: 'Cyrl' },
  greek: { language: 'ell', script: 'Grek' },
  chinese: { language: 'zho', script: 'Hans' },
  japanese: { language: 'jpn', script: 'Jpan' },
  korean: { language: 'kor', script: 'Kore' },
  arabic: { language: 'ara', script: 'Arab' },
};

type Json = Record<string, unknown>;

export class MusicBrainzJson {
  private readonly genreIds = new Map<string, string>();

  constructor(private readonly shape: CatalogShape) {
    GENRES.forEach((g, i) => this.genreIds.set(g, mbid(shape.seed, 'genre', i)));
  }

  private id(kind: string, key: number | string): string {
    return mbid(this.shape.seed, kind, key);
  }

  /** `The Moon` sorts as `Moon, The`, as MusicBrainz writes sort names. */
  private static sortName(name: string): string {
    return name.startsWith('The ') ? `${name.slice(4)}, The` : name;
  }

  private genres(names: readonly string[] | null): Json[] {
    return (names ?? []).map((name) => ({ id: this.genreIds.get(name), name, count: 1, disambiguation: '' }));
  }

  /** An artist as credits embed it. */
  private creditedArtist(index: number): Json {
    const name = this.shape.artistName(index);
    return {
      id: this.id('artist', index),
      name,
      'sort-name': MusicBrainzJson.sortName(name),
      type: name.startsWith('The ') ? 'Group' : 'Person',
      disambiguation: '',
    };
  }

  /** An artist credit; `featuredFrom` is the first credit joined with ` feat. ` (the rest with ` & `, the last with ''). */
  private credit(artists: readonly number[], featuredFrom: number): Json[] {
    return artists.map((a, i) => ({
      name: this.shape.artistName(a),
      joinphrase: i === artists.length - 1 ? '' : i + 1 === featuredFrom ? ' feat. ' : ' & ',
      artist: this.creditedArtist(a),
    }));
  }

  private recording(song: GenSong, credit: Json[]): Json {
    return {
      id: this.id('recording', song.index),
      title: song.name,
      length: song.durationMs,
      video: false,
      disambiguation: '',
      isrcs: [song.isrc],
      'first-release-date': song.firstReleaseDate,
      'artist-credit': credit,
      genres: this.genres(song.genres),
    };
  }

  /** A line of `mbdump/artist`. */
  artist(a: GenArtist): Json {
    return {
      id: this.id('artist', a.index),
      name: a.name,
      'sort-name': MusicBrainzJson.sortName(a.name),
      type: a.name.startsWith('The ') ? 'Group' : 'Person',
      disambiguation: '',
      country: null,
      'life-span': { begin: null, end: null, ended: false },
      ipis: [],
      isnis: [syntheticIsni(a.index)],
      aliases: [],
      genres: this.genres(a.genres),
    };
  }

  /** A line of `mbdump/release`: one medium per disc, track positions as the catalog numbers them. */
  release(r: GenRelease): Json {
    const key = r.kind === 'album' ? `al${r.index}` : `comp${r.index}`;
    const discs = [...new Set(r.tracks.map((t) => t.disc))];
    const script = r.kind === 'album' && r.tracks.length > 0 ? r.tracks[0].song.script.name : 'latin';
    const labelIndex = r.label === null ? -1 : LABELS.indexOf(r.label as (typeof LABELS)[number]);
    return {
      id: this.id('release', key),
      title: r.name,
      status: 'Official',
      quality: 'normal',
      disambiguation: '',
      packaging: 'None',
      barcode: r.upc,
      date: r.releaseDate,
      country: 'XW',
      'text-representation': TEXT_REPRESENTATION[script],
      'label-info':
        r.label === null
          ? []
          : [
              {
                'catalog-number': null,
                label: { id: this.id('label', labelIndex), name: r.label, 'sort-name': r.label, disambiguation: '', 'label-code': null },
              },
            ],
      'artist-credit': this.credit(r.artists, r.artists.length),
      'release-group': {
        id: this.id('release-group', key),
        title: r.name,
        'primary-type': r.kind === 'album' && r.tracks.length === 1 ? 'Single' : 'Album',
        'secondary-types': r.kind === 'compilation' ? ['Compilation'] : [],
        'first-release-date': r.releaseDate,
        disambiguation: '',
      },
      media: discs.map((disc) => {
        const tracks = r.tracks.filter((t) => t.disc === disc);
        return {
          position: disc,
          format: 'Digital Media',
          title: '',
          'track-count': tracks.length,
          'track-offset': 0,
          tracks: tracks.map((t) => {
            const credit = this.credit(t.song.credits, 1);
            return {
              id: this.id('track', `${key}/${disc}/${t.track}`),
              position: t.track,
              number: String(t.track),
              title: t.song.name,
              length: t.song.durationMs,
              'artist-credit': credit,
              recording: this.recording(t.song, credit),
            };
          }),
        };
      }),
      genres: this.genres(r.genres),
      'cover-art-archive': { artwork: true, count: 1, front: true, back: false, darkened: false },
    };
  }
}
