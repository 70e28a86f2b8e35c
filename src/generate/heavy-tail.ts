import { withGs1CheckDigit } from '../raw/codes.js';
import { type CompilationPlan, drawPicks } from './compilations.js';
import type { GenArtist } from './model.js';
import type { Namer } from './names.js';
import { Prng, Zipf } from './prng.js';

/**
 * Generic titles real catalogs hold tens of thousands of recordings of, most common first (the
 * tail draws them with Zipf frequencies): album furniture, carols and hymns, standards in the
 * public domain, classical favourites.
 */
export const TAIL_TITLES = `Intro|Outro|Interlude|Silent Night|Ave Maria|Untitled|Amazing Grace|Hallelujah|Skit|Prelude
|Jingle Bells|O Holy Night|Home|White Christmas|Greensleeves|Danny Boy|Auld Lang Syne|Canon in D|Für Elise|Summertime
|Reprise|Overture|Stille Nacht|Happy Birthday|Clair de Lune|Swing Low, Sweet Chariot|Scarborough Fair|House of the Rising Sun
|When the Saints Go Marching In|Joy to the World|Deck the Halls|O Come, All Ye Faithful|The First Noel|Gymnopédie No. 1
|Moonlight Sonata|Air on the G String|Gloria|Requiem|Theme|Love Song|Lullaby|Blues|Untitled Track|Bonus Track|Medley
|Hidden Track|Instrumental|Finale|Epilogue|Noche de Paz|Минуэт|アヴェ・マリア|平安夜`
  .split('|')
  .map((t) => t.trim());

/** The artists credited on a few percent of every catalog's songs, the first the album artist of box sets. */
export const TAIL_ARTISTS = ['Various Artists', 'Traditional', 'Johann Sebastian Bach', 'Wolfgang Amadeus Mozart', 'Ludwig van Beethoven', 'Anonymous'];

/** Shares of all songs: a generic title, a cover of an earlier hit's title. */
const GENERIC_SHARE = 0.03;
const COVER_SHARE = 0.02;
/** Chance of a tail artist's credit: on a generic title, on any other song. */
const CREDIT_ON_GENERIC = 0.4;
const CREDIT_OTHERWISE = 0.025;
/** A song this popular or more is a hit others cover; the first HIT_POOL hits are kept. */
const HIT_POPULARITY = 20_000;
const HIT_POOL = 5_000;
/** One box set per this many albums, of BOX_MIN..BOX_MAX tracks. */
const ALBUMS_PER_BOX = 2_000;
const BOX_MIN = 100;
const BOX_MAX = 500;

/** What the tail makes of one song: its title (null: the one drawn) and a tail artist to credit (-1: none). */
export interface TailSong {
  readonly name: string | null;
  readonly credit: number;
}

/**
 * A real catalog's heavy tail (`omm generate --heavy-tail`), drawn from streams of its own (9
 * songs, 10 box sets, 11 artists) so that a catalog without it is byte for byte what it always
 * was: generic titles shared by thousands of songs, covers of popular titles by other artists,
 * a few artists (TAIL_ARTISTS) credited on a few percent of all songs, and box sets of hundreds
 * of tracks credited to Various Artists.
 */
export class HeavyTail {
  private readonly rs: Prng;
  private readonly titleZipf = new Zipf(TAIL_TITLES.length, 1);
  private readonly creditZipf = new Zipf(TAIL_ARTISTS.length - 1, 1);
  private readonly hitZipf = new Zipf(HIT_POOL, 0.9);
  private readonly hits: string[] = [];

  /** `firstArtist`: the index of the first tail artist (after every drawn one). */
  constructor(
    private readonly seed: number,
    readonly firstArtist: number,
  ) {
    this.rs = new Prng(seed, 9);
  }

  /** The tail artists, indices from `firstArtist`. */
  artists(namer: Namer): GenArtist[] {
    const ra = new Prng(this.seed, 11);
    return TAIL_ARTISTS.map((name, k) => ({
      index: this.firstArtist + k,
      id: `ar${this.firstArtist + k}`,
      name,
      script: 0,
      artworkUrl: null,
      genres: [k === 0 ? 'Pop' : k === 1 || k === 5 ? 'Folk' : 'Classical'],
      popularity: 50_000 + ra.int(0, 40_000),
      dateAdded: namer.addedAt(ra),
    }));
  }

  /**
   * Song by song, in order: a generic title, a cover of a hit drawn earlier, or the title drawn
   * (`baseName`: without its featuring and version), which joins the hits when it is popular.
   */
  song(baseName: string, popularity: number): TailSong {
    const r = this.rs;
    const u = r.next();
    let name: string | null = null;
    if (u < GENERIC_SHARE) name = TAIL_TITLES[this.titleZipf.sample(r)];
    else if (u < GENERIC_SHARE + COVER_SHARE && this.hits.length > 0) name = this.hits[this.hitZipf.sample(r) % this.hits.length];
    else if (popularity >= HIT_POPULARITY && this.hits.length < HIT_POOL) this.hits.push(baseName);
    const credited = r.chance(u < GENERIC_SHARE ? CREDIT_ON_GENERIC : CREDIT_OTHERWISE);
    // Various Artists (the first) credits box sets, never a song.
    const credit = credited ? this.firstArtist + 1 + this.creditZipf.sample(r) : -1;
    return { name, credit };
  }

  /** The box sets: compilations `comp<firstIndex>` on, of hundreds of songs drawn from the whole catalog. */
  boxSets(namer: Namer, albumCount: number, firstIndex: number, songs: number): CompilationPlan[] {
    const rb = new Prng(this.seed, 10);
    const count = Math.max(1, Math.floor(albumCount / ALBUMS_PER_BOX));
    const plans: CompilationPlan[] = [];
    for (let k = 0; k < count; k++) {
      const index = firstIndex + k;
      const id = `comp${index}`;
      const name = `${rb.pick(['The Ultimate Collection', 'The Complete Recordings', '100 Greatest', 'Classics Box', 'Christmas Box'])} Vol. ${k + 1}`;
      const upc = withGs1CheckDigit(`50${String(index).padStart(10, '0')}`);
      const releaseDate = namer.releaseDate(rb, 1995 + (k % 31));
      const popularity = namer.popularity(rb);
      const picks = drawPicks(rb, rb.int(BOX_MIN, Math.min(BOX_MAX, Math.max(BOX_MIN, songs))), songs);
      plans.push({ index, id, name, upc, releaseDate, artworkUrl: `https://img.example.com/albums/${id}.jpg`, popularity, artist: this.firstArtist, picks });
    }
    return plans;
  }
}
