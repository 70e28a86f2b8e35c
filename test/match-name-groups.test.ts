import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/index.js';
import { Catalog } from '../src/catalog/catalog.js';
import { NAME_GROUP_MIN } from '../src/index-format/search/name-groups.js';
import { matchResource, type MatchQuery } from '../src/search/match/matcher.js';
import { takedown } from '../src/takedown/takedown.js';
import type { TakedownKey } from '../src/takedown/takedown-keys.js';
import { tempDir } from './helpers/raw-fixture.js';
import { rawWithout } from './helpers/takedown-raw.js';

const WORDS = ['Blue', 'Moon', 'Red', 'Sun', 'Gold', 'The'];
const ARTISTS = 24;
const artistName = (i: number) => `${WORDS[i % 6]} ${WORDS[(i * 5 + 1) % 6]} ${['River', 'Stone', 'Bird', 'Star'][i % 4]}`;

/** 900 songs: 300 called "Love", 300 "Night Love", the rest their own; 24 artists sharing words. */
function writeRaw(dir: string): void {
  const rows = (header: string, n: number, row: (i: number) => string) => `${[header, ...Array.from({ length: n }, (_, i) => row(i))].join('\n')}\n`;
  const songs = 900;
  writeFileSync(
    join(dir, 'artists.csv'),
    rows('id,name,popularity', ARTISTS, (i) => `ar${i},${artistName(i)},${i}`),
  );
  writeFileSync(
    join(dir, 'albums.csv'),
    rows('id,name,release_date', 90, (i) => `al${i},Album ${i},${1990 + (i % 30)}`),
  );
  writeFileSync(
    join(dir, 'album_artists.csv'),
    rows('album_id,artist_id', 90, (i) => `al${i},ar${i % ARTISTS}`),
  );
  const title = (i: number) => (i % 3 === 0 ? 'Love' : i % 3 === 1 ? 'Night Love' : `Song ${i}`);
  writeFileSync(
    join(dir, 'songs.csv'),
    rows('id,name,duration_ms,popularity', songs, (i) => `s${i},${title(i)},${150000 + i},${(i * 7919) % 1000}`),
  );
  writeFileSync(
    join(dir, 'album_tracks.csv'),
    rows('album_id,song_id,track_number', songs, (i) => `al${i % 90},s${i},${Math.floor(i / 90) + 1}`),
  );
  // Every fifth song credits a second artist too.
  const credits = ['song_id,artist_id,position'];
  for (let i = 0; i < songs; i++) {
    credits.push(`s${i},ar${(i * 7) % ARTISTS},0`);
    if (i % 5 === 0) credits.push(`s${i},ar${(i * 11 + 1) % ARTISTS},1`);
  }
  writeFileSync(join(dir, 'song_artists.csv'), `${credits.join('\n')}\n`);
}

describe("the matcher's first stage answers large title groups from the compile's name groups", () => {
  let dist: string;
  let cat: Catalog;
  beforeAll(async () => {
    const raw = tempDir();
    writeRaw(raw);
    dist = tempDir();
    await compileCatalog({ rawDir: raw, outDir: dist });
    cat = Catalog.open(dist);
  });
  afterAll(() => cat.close());

  it('answers every query as the scan does, and uses the groups for the large titles', () => {
    const pages = cat.search('song').firstPages!;
    const groups = pages.nameGroups()!;
    expect(groups.size).toBe(2);
    expect(cat.search('song').exactNameRange('love').to - cat.search('song').exactNameRange('love').from).toBeGreaterThanOrEqual(NAME_GROUP_MIN);
    const queries: MatchQuery[] = [];
    for (const name of ['Love', 'Night Love', 'love', 'Night Lov', 'Song 5']) {
      for (let a = 0; a < ARTISTS; a++) {
        queries.push(
          { name, artist: artistName(a) },
          { name, artist: artistName(a).split(' ').slice(1).join(' ') },
          { name, artist: `${artistName(a)} & ${artistName((a + 3) % ARTISTS)}` },
        );
      }
      queries.push({ name, artist: 'Nobody Here' }, { name });
    }
    // Counts the first stages the groups answered.
    let answered = 0;
    const holdingAll = groups.holdingAll.bind(groups);
    groups.holdingAll = (start, ids, limit) => {
      const found = holdingAll(start, ids, limit);
      if (found !== null) answered++;
      return found;
    };
    const withGroups = queries.map((q) => matchResource(cat, 'song', q));
    expect(answered).toBeGreaterThanOrEqual(3 * 3 * ARTISTS);
    // The same queries with the groups out of reach: the first stage scans the group.
    pages.nameGroups = () => null;
    const scanned = queries.map((q) => matchResource(cat, 'song', q));
    expect(withGroups).toEqual(scanned);
    expect(withGroups.filter((r) => r !== null && r.score === 1).length).toBeGreaterThan(2 * ARTISTS);
  });
});

describe('under a deletes set, the name groups answer as the full compile without the taken-down does', () => {
  it('every query matches the same song (by id) as a full compile of the raw catalog without them', async () => {
    const raw = tempDir();
    writeRaw(raw);
    const dist = tempDir();
    await compileCatalog({ rawDir: raw, outDir: dist });
    // Every third "Love" and every fourth "Night Love" song, most popular first among them.
    const before = Catalog.open(dist);
    const ids = Array.from({ length: 900 }, (_, i) => i).filter((i) => (i % 3 === 0 && i % 9 === 0) || (i % 3 === 1 && i % 4 === 1));
    const keys = ids.map((i): TakedownKey => ({ kind: 'id', value: `omm:song:${before.song(before.resolve('song', `s${i}`)).ommId}` }));
    before.close();
    expect(takedown(dist, keys).plan.added.song).toBe(ids.length);
    const after = tempDir();
    rawWithout(raw, after, { song: new Set(ids.map((i) => `s${i}`)), album: new Set(), artist: new Set() });
    const full = tempDir();
    await compileCatalog({ rawDir: after, outDir: full });
    const [down, fresh] = [Catalog.open(dist), Catalog.open(full)];
    try {
      expect(down.deletes?.count('song')).toBe(ids.length);
      let grouped = 0;
      const groups = down.search('song').firstPages!.nameGroups()!;
      const holdingAll = groups.holdingAll.bind(groups);
      groups.holdingAll = (start, termIds, limit) => {
        grouped++;
        return holdingAll(start, termIds, limit);
      };
      for (const name of ['Love', 'Night Love', 'love']) {
        for (let a = 0; a < ARTISTS; a++) {
          for (const artist of [artistName(a), `${artistName(a)} & ${artistName((a + 3) % ARTISTS)}`]) {
            const got = matchResource(down, 'song', { name, artist });
            const want = matchResource(fresh, 'song', { name, artist });
            expect(got && down.song(got.ordinal).id, `${name} / ${artist}`).toBe(want && fresh.song(want.ordinal).id);
          }
        }
      }
      expect(grouped).toBeGreaterThan(0);
    } finally {
      down.close();
      fresh.close();
    }
  });
});
