// Times in-process search and match on a compiled snapshot (no HTTP): terms drawn from real
// titles and artist names of the snapshot, one and two words, full titles, "title artist",
// a prefix, and a one-letter typo; each search keeps the first page of 10, as /v1/search does.
// Usage: node bench/search-child.mjs <dist> [--queries 2000]
import { Catalog } from '../dist/catalog/catalog.js';
import { searchIndex } from '../dist/search/search-engine.js';
import { matchResource } from '../dist/search/match/matcher.js';
import { numberArg, seeded } from './cli-args.mjs';

const [dist] = process.argv.slice(2);
const count = numberArg('queries', '2000');
const rssBefore = process.memoryUsage().rss;
const t0 = process.hrtime.bigint();
const cat = Catalog.open(dist);
const index = cat.search('song');
const openMs = Number(process.hrtime.bigint() - t0) / 1e6;

const next = seeded(424242);
const songs = [];
for (let i = 0; i < count; i++) songs.push(cat.song(Math.floor(next() * cat.count('song'))));
const typo = (s) => {
  const i = 1 + Math.floor(next() * Math.max(1, s.length - 2));
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
};
const kinds = {
  'one word': (s) => s.name.split(/\s+/)[0],
  'two words': (s) => s.name.split(/\s+/).slice(0, 2).join(' '),
  title: (s) => s.name,
  'title artist': (s) => `${s.name} ${s.artistNames[0] ?? ''}`,
  prefix: (s) => s.name.slice(0, Math.max(3, Math.floor(s.name.length / 2))),
  typo: (s) => typo(s.name),
};
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const firstStart = process.hrtime.bigint();
searchIndex(index, songs[0].name, { need: 10 });
const firstQueryMs = Number(process.hrtime.bigint() - firstStart) / 1e6;
const results = {};
for (const [kind, make] of Object.entries(kinds)) {
  const times = [];
  let top1 = 0;
  let top10 = 0;
  for (const s of songs) {
    const term = make(s);
    const a = process.hrtime.bigint();
    const { hits } = searchIndex(index, term, { need: 10 });
    times.push(Number(process.hrtime.bigint() - a) / 1e3);
    const ids = hits.slice(0, 10).map((h) => cat.song(index.ordinal(h.rank)).id);
    if (ids[0] === s.id) top1++;
    if (ids.includes(s.id)) top10++;
  }
  times.sort((a, b) => a - b);
  results[kind] = {
    medianUs: Math.round(pct(times, 0.5)),
    p99Us: Math.round(pct(times, 0.99)),
    maxUs: Math.round(times[times.length - 1]),
    top1: top1 / songs.length,
    top10: top10 / songs.length,
  };
}
const matchTimes = [];
let matched = 0;
for (const s of songs) {
  const a = process.hrtime.bigint();
  const m = matchResource(cat, 'song', { name: s.name, artist: s.artistNames[0] });
  matchTimes.push(Number(process.hrtime.bigint() - a) / 1e3);
  if (m && cat.song(m.ordinal).id === s.id) matched++;
}
matchTimes.sort((a, b) => a - b);
results['match title+artist'] = {
  medianUs: Math.round(pct(matchTimes, 0.5)),
  p99Us: Math.round(pct(matchTimes, 0.99)),
  maxUs: Math.round(matchTimes[matchTimes.length - 1]),
  top1: matched / songs.length,
};
console.log(
  JSON.stringify(
    {
      openMs,
      firstQueryMs,
      rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
      rssBeforeMiB: Math.round(rssBefore / 2 ** 20),
      documents: index.documents,
      terms: index.terms,
      queries: count,
      results,
    },
    null,
    1,
  ),
);
