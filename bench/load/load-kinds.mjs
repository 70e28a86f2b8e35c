// The requests of the load benchmarks, drawn from a snapshot's own songs with a fixed seed: the
// kinds of issue 20's target table, each as paths for interface 1 (v1) and, where it has the
// request, interface 2 (om). Search terms are real title words and artist names.
const enc = encodeURIComponent;
const q = (params) => new URLSearchParams(params).toString();
const words = (s) => s.split(/\s+/).filter((w) => /\p{L}/u.test(w));

/** The kinds: [{ name, paths: { v1: [...], om?: [...] } }], `count` songs sampled with `next()`. */
export function loadKinds(cat, next, count = 10000) {
  // Songs in service only (a snapshot with a deletes set leaves some of its records out).
  const stored = cat.records('song').count;
  const pick = () => {
    for (;;) {
      const ordinal = Math.floor(next() * stored);
      if (!cat.isDeleted('song', ordinal)) return cat.song(ordinal);
    }
  };
  const sample = Array.from({ length: count }, pick);
  const withIsrc = sample.filter((s) => s.isrc);
  const isrcSets = Array.from({ length: 2000 }, (_, i) => Array.from({ length: 10 }, (_, k) => withIsrc[(i * 10 + k) % withIsrc.length].isrc).join(','));
  // One word: a word of the title for even songs, of the first artist's name for odd ones.
  const oneWord = sample.map((s, i) => (i % 2 === 0 ? words(s.name) : words(s.artistNames[0] ?? s.name))[0] ?? s.name);
  // Two words: the title's first two, or its first and the artist's first when it has one word.
  const twoWords = sample.map((s) => {
    const title = words(s.name);
    return (title.length >= 2 ? title.slice(0, 2) : [title[0] ?? s.name, words(s.artistNames[0] ?? '')[0] ?? '']).join(' ').trim();
  });
  // Typing (the explorer's search box): a prefix of 2 letters up to one short of the word, and
  // the first word whole with a prefix of the next (2 letters up to one short of it).
  const typed = (word, i) => (word.length <= 2 ? word : word.slice(0, 2 + (i % (word.length - 2))));
  const prefix = oneWord.map((w, i) => typed([...w].join(''), i));
  const wordAndPrefix = twoWords.map((t, i) => {
    const [first, second = ''] = t.split(' ');
    return second.length >= 2 ? `${first} ${typed(second, i)}` : first;
  });
  const explorer = (t) => `/v1/search?${q({ term: t, types: 'song,album,artist,playlist', limit: '5' })}`;
  const ids = sample.map((s) => enc(s.id));
  return [
    { name: 'song by id', paths: { v1: ids.map((id) => `/v1/song/${id}`), om: ids.map((id) => `/openmusic/songs/${id}`) } },
    {
      name: 'song + albums, artists',
      paths: { v1: ids.map((id) => `/v1/song/${id}?include=albums,artists`), om: ids.map((id) => `/openmusic/songs/${id}?include=albums,artists`) },
    },
    { name: '10-ISRC lookup', paths: { v1: isrcSets.map((v) => `/v1/songs/lookup?isrc=${v}`), om: isrcSets.map((v) => `/openmusic/songs?isrc=${v}`) } },
    {
      name: 'one-word search',
      paths: {
        v1: oneWord.map((t) => `/v1/search?${q({ term: t, types: 'song', limit: '10' })}`),
        om: oneWord.map((t) => `/openmusic/search/songs?${q({ term: t, limit: '10' })}`),
      },
    },
    {
      name: 'two-word search',
      paths: {
        v1: twoWords.map((t) => `/v1/search?${q({ term: t, types: 'song', limit: '10' })}`),
        om: twoWords.map((t) => `/openmusic/search/songs?${q({ term: t, limit: '10' })}`),
      },
    },
    // Issue 43: what the explorer sends while someone types, and a client that leaves types out.
    { name: 'explorer: word', paths: { v1: oneWord.map(explorer) } },
    { name: 'explorer: prefix', paths: { v1: prefix.map(explorer) } },
    { name: 'explorer: word + prefix', paths: { v1: wordAndPrefix.map(explorer) } },
    { name: 'default form', paths: { v1: oneWord.map((t) => `/v1/search?${q({ term: t })}`) } },
    { name: 'match: title + artist', paths: { v1: sample.map((s) => `/v1/match/song?${q({ name: s.name, artist: s.artistNames.join(' & ') })}`) } },
  ];
}

/**
 * With the heavy tail (omm generate --heavy-tail): the requests that land in it, from songs
 * whose title is one of `titles` (thousands of songs share each): the explorer's request for
 * the title and for its first word typed halfway, and a match of the title with the song's
 * artists.
 */
export function tailKinds(cat, next, titles, count = 2000) {
  const shared = new Set(titles);
  const stored = cat.records('song').count;
  const songs = [];
  for (let tries = 0; songs.length < count && tries < count * 200; tries++) {
    const ordinal = Math.floor(next() * stored);
    if (cat.isDeleted('song', ordinal)) continue;
    const song = cat.song(ordinal);
    if (shared.has(song.name)) songs.push(song);
  }
  const explorer = (t) => `/v1/search?${q({ term: t, types: 'song,album,artist,playlist', limit: '5' })}`;
  const half = (s) => {
    const first = words(s.name)[0] ?? s.name;
    return [...first].slice(0, Math.max(2, Math.ceil([...first].length / 2))).join('');
  };
  return [
    { name: 'tail: explorer, shared title', paths: { v1: songs.map((s) => explorer(s.name)) } },
    { name: 'tail: explorer, shared title typed', paths: { v1: songs.map((s) => explorer(half(s))) } },
    { name: 'tail: match, shared title', paths: { v1: songs.map((s) => `/v1/match/song?${q({ name: s.name, artist: s.artistNames.join(' & ') })}`) } },
  ];
}
