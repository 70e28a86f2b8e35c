import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artistSet, matchTitle } from './match-text.js';
import { SearchIndex } from '../../index-format/search/search-index.js';
import { writeSearchIndex } from '../../../test/helpers/search-columns.js';
import { openShard } from '../../index-format/shards/shard-reader.js';
import { CandidateFilter } from './candidate-filter.js';
import { artistSetScore, combine, normalArtistNames, titleScore } from './scoring.js';

// Titles and credits with the decorations scoring treats specially, in several scripts.
const TITLES = [
  'Style',
  "Style (Taylor's Version)",
  'Style - Remastered 2011',
  'Style (feat. Ed Sheeran)',
  'Stylo',
  'Hola',
  'Hola - Remix',
  'Hola - Live',
  'Waka Waka (This Time for Africa)',
  'Waka Waka',
  'Piece of Your Heart',
  'Piece of My Heart',
  'Canción del Mariachi',
  'Cancion del Mariachi',
  'Любовь',
  'Любов',
  '恋愛サーキュレーション',
  '夜に駆ける',
  'Save Me (with Jelly Roll)',
  'Save Me',
  'Heartbreak Anniversary',
  'Heartbreak Anniversery',
];
const ARTISTS = [
  'Taylor Swift',
  'Ed Sheeran',
  'Shakira',
  'Meduza',
  'Goodboys',
  'Antonio Banderas',
  'Kino',
  'YOASOBI',
  'Kana Hanazawa',
  'Jelly Roll',
  'Lainey Wilson',
  'Giveon',
  'Los Lonely Boys',
];

describe('CandidateFilter', () => {
  let dir: string;
  let index: SearchIndex;
  const credits: string[][] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'omm-candidate-filter-'));
    const targets: number[] = [];
    const offsets = [0];
    TITLES.forEach((_, i) => {
      const a = [ARTISTS[i % ARTISTS.length], ...(i % 3 === 0 ? [ARTISTS[(i + 5) % ARTISTS.length]] : [])];
      credits.push(a);
      targets.push(...a.map((n) => ARTISTS.indexOf(n)));
      offsets.push(targets.length);
    });
    writeSearchIndex(join(dir, 'search.blob'), 'test', {
      type: 'song',
      ordinals: Uint32Array.from(TITLES.keys()),
      names: TITLES,
      artists: { offsets: Uint32Array.from(offsets), targets: Uint32Array.from(targets), artistNames: ARTISTS },
    });
    index = new SearchIndex(openShard(join(dir, 'search.blob')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('never rules out a candidate that scoring would accept, and rules out most that it would not', () => {
    const typo = (s: string) => s.replace(/(\p{L})(\p{L})(\p{L}+)$/u, '$2$1$3');
    const queryTitles = TITLES.flatMap((t) => [t, t.toUpperCase(), typo(t), t.split(' ')[0], `${t} - Live`, `${t} (feat. Giveon)`]);
    const queryCredits = [...ARTISTS, 'Taylor Swift & Ed Sheeran', 'Ed Sheeran, Taylor Swift', 'Shakria', 'Meduza feat. Goodboys', 'Nobody Here', 'Swift'];
    let accepted = 0;
    let ruledOut = 0;
    let pairs = 0;
    for (const name of queryTitles) {
      const title = matchTitle(name);
      for (const credit of queryCredits) {
        const artists = artistSet(credit);
        const filter = new CandidateFilter(index, title, artists);
        for (let rank = 0; rank < TITLES.length; rank++) {
          const candidate = matchTitle(TITLES[rank]);
          const score = combine({ name: titleScore(title, candidate), artist: artistSetScore(artists, normalArtistNames(credits[rank])) });
          const passes = filter.canPass(rank);
          pairs++;
          if (score !== null) {
            accepted++;
            expect(passes, `${name} / ${credit} -> ${TITLES[rank]} (${score})`).toBe(true);
          } else if (!passes) ruledOut++;
        }
      }
    }
    expect(accepted).toBeGreaterThan(200);
    expect(ruledOut / (pairs - accepted)).toBeGreaterThan(0.5);
  });

  it('without a credit judges the title alone', () => {
    const filter = new CandidateFilter(index, matchTitle('Piece of Your Haert'), null);
    expect(filter.canPass(TITLES.indexOf('Piece of Your Heart'))).toBe(true);
    expect(filter.canPass(TITLES.indexOf('Любовь'))).toBe(false);
  });
});
