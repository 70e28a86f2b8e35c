import { Catalog } from '../../src/catalog/catalog.js';
import { SEGMENT_TYPES, type SegmentType } from '../../src/catalog/segments.js';
import { VIEW_TYPES, viewBytes, type ViewType } from '../../src/catalog/views.js';
import { identityOf, RELATION_TARGETS } from '../../src/compile/delta/identity.js';
import { verifySnapshot } from '../../src/index-format/index.js';
import type { PlacedRecord } from '../../src/index-format/tables/placed-record.js';
import { matchResource } from '../../src/search/match/matcher.js';
import { stored, type StationView } from '../../src/catalog/stations.js';
import { searchIndex } from '../../src/search/search-engine.js';
import { searchSegments } from '../../src/search/segmented-search.js';

/**
 * Every way a segmented snapshot's read model can disagree with the full compile of the same raw
 * catalog (docs/segments.md): records, views, keys, lists, orders, search and match, each listed.
 */

const TYPES = Object.keys(SEGMENT_TYPES) as SegmentType[];
const ID_KEYS: Partial<Record<SegmentType, string[]>> = {
  song: ['song.id', 'song.omm'],
  album: ['album.id', 'album.omm'],
  artist: ['artist.id', 'artist.omm'],
  playlist: ['playlist.id'],
  station: ['station.id'],
  genre: ['genre.name'],
};

function bytes(view: Buffer | PlacedRecord | null): string {
  return view ? viewBytes(view).toString('utf8') : 'null';
}

/** Every way the read model disagrees with the full compile, as lines (none expected). */
function disagreements(seg: Catalog, full: Catalog): string[] {
  const out: string[] = [];
  const note = (what: string) => out.length < 30 && out.push(what);
  if (JSON.stringify(seg.counts) !== JSON.stringify(full.counts)) note(`counts ${JSON.stringify(seg.counts)} vs ${JSON.stringify(full.counts)}`);
  for (const type of TYPES) {
    const records = full.records(type);
    const ids = new Map<string, number>();
    for (let g = 0; g < seg.records(type).count; g++) if (!seg.isDeleted(type as 'song', g)) ids.set(identityOf(type, seg.records(type).get(g)), g);
    if (ids.size !== records.count) note(`${type}: ${ids.size} served, the full compile ${records.count}`);
    for (let n = 0; n < records.count; n++) {
      const record = records.get(n);
      const identity = identityOf(type, record);
      const g = ids.get(identity);
      if (g === undefined) {
        note(`${type} ${identity} missing`);
        continue;
      }
      if (type === 'station') {
        // Stations are compared as served: over segments a derived station's tracks are made
        // again from the merged catalog (live-stations.ts), its stored list and count not read.
        const a = stored(seg, g);
        const b = stored(full, n);
        const named = (cat: Catalog, view: StationView | null) =>
          JSON.stringify([view?.record, Array.from(view?.tracks ?? [], (t) => cat.records('song').get<{ id: string }>(t).id)]);
        if (named(seg, a) !== named(full, b)) note(`station ${identity}: served differently`);
      } else if (JSON.stringify(seg.records(type).get(g)) !== JSON.stringify(record)) note(`${type} ${identity}: record differs`);
      for (const table of ID_KEYS[type] ?? []) {
        const key = table === 'genre.name' ? String(record.name).toLowerCase() : String(table.endsWith('.omm') ? record.ommId : record.id);
        if (seg.keys(table).get(key) !== g) note(`${table} ${key}: ${seg.keys(table).get(key)}, expected ${g}`);
      }
      if ((VIEW_TYPES as readonly string[]).includes(type)) {
        for (const iface of ['v1', 'om'] as const) {
          if (bytes(seg.views!.get(iface, type as ViewType, g)) !== bytes(full.views!.get(iface, type as ViewType, n)))
            note(`${type} ${identity}: ${iface} view differs`);
        }
      }
      for (const [name, target] of Object.entries(RELATION_TARGETS)) {
        if (!name.startsWith(`${type}.`) || !full.hasRelation(name) || name === 'station.tracks') continue;
        const named = (cat: Catalog, list: Uint32Array) => Array.from(list, (t) => identityOf(target, cat.records(target).get(t))).join('|');
        const a = named(seg, seg.relation(name).targetsOf(g));
        const b = named(full, full.relation(name).targetsOf(n));
        if (a !== b || seg.relation(name).count(g) !== full.relation(name).count(n)) note(`${name} of ${identity}: ${a} vs ${b}`);
      }
    }
  }
  return out;
}

/** Every precomputed order, entry by entry, and the ranks made from it. */
function orderDisagreements(seg: Catalog, full: Catalog): string[] {
  const out: string[] = [];
  for (const [type, table] of [
    ['song', 'songs.orders'],
    ['album', 'albums.orders'],
    ['artist', 'artists.orders'],
    ['playlist', 'playlists.orders'],
  ] as const) {
    for (const name of full.snapshot
      .arrays(table)
      .names()
      .filter((n) => n.startsWith('order.'))) {
      const sort = name.slice('order.'.length);
      const ids = (cat: Catalog) => Array.from(cat.order(type, sort).slice(0, 1e9), (o) => identityOf(type, cat.records(type).get(o)));
      const a = ids(seg);
      const b = ids(full);
      const first = a.findIndex((id, i) => id !== b[i]);
      if (a.length !== b.length || first >= 0) out.push(`${type} ${sort}: ${a.length} vs ${b.length}, first difference at ${first}`);
      const order = seg.order(type, sort);
      const rank = seg.rank(type, sort);
      for (let k = 0; k < order.length; k++) if (rank[order.get(k)] !== k) out.push(`${type} ${sort}: rank of entry ${k} is ${rank[order.get(k)]}`);
    }
  }
  return out.slice(0, 20);
}

/** Queries people send, from the full compile's own names: words, titles, prefixes, word + prefix, typos, pairs. */
function queriesOf(full: Catalog, type: 'song' | 'album' | 'artist' | 'playlist'): string[] {
  const names = Array.from({ length: full.count(type) }, (_, o) => full.records(type).get<{ name: string }>(o).name);
  const out = new Set<string>(['love', 'the', 'lo', 'new', 'remastered', 'revisited', 'new song', 'new artist 1', 'zzqx', 'lovr', 'teh love', 'remastred']);
  names.forEach((name, i) => {
    if (i % 41 !== 3 && !/Remastered|New|Revisited/.test(name)) return;
    const words = name.toLowerCase().split(' ');
    out.add(name);
    out.add(words[0]);
    out.add(words[0].slice(0, 2));
    if (words.length > 1) out.add(`${words[0]} ${words[1].slice(0, 2)}`);
    if (words[0].length > 4) out.add(words[0].slice(0, 2) + words[0].slice(3));
  });
  return [...out];
}

/** Every query of queriesOf, on every searchable type, as the segments rank it and as the full compile does. */
function searchDisagreements(seg: Catalog, full: Catalog): string[] {
  const out: string[] = [];
  for (const type of ['song', 'album', 'artist', 'playlist'] as const) {
    const popularity = seg.order(type, 'popularity');
    const index = full.search(type);
    for (const term of queriesOf(full, type)) {
      for (const options of [
        { need: 10 },
        { need: 25, countTo: 26 },
        {},
        { need: 5, fuzzy: false },
        { window: 20, scan: 25, need: 10 },
        { window: 40, need: 40 },
      ]) {
        const a = searchSegments(seg.searchParts(type)!, term, options);
        const b = searchIndex(index, term, options);
        const left = `${a.total} ${a.hits.map((h) => `${identityOf(type, seg.records(type).get(popularity.get(h.rank)))}:${h.tier}`)}`;
        const right = `${b.total} ${b.hits.map((h) => `${identityOf(type, full.records(type).get(index.ordinal(h.rank)))}:${h.tier}`)}`;
        if (left !== right && out.length < 10) out.push(`${type} "${term}" ${JSON.stringify(options)}:\n  ${left.slice(0, 300)}\n  ${right.slice(0, 300)}`);
      }
    }
  }
  return out;
}

/** Matches of the full compile's own metadata (exact, typo'd, without the credit) as the segments answer them and as the full compile does. */
function matchDisagreements(seg: Catalog, full: Catalog): string[] {
  const out: string[] = [];
  for (const type of ['song', 'album', 'artist'] as const) {
    const records = full.records(type);
    for (let o = 0; o < records.count; o += type === 'artist' ? 7 : 11) {
      const r = records.get<{ name: string; artistNames?: string[] }>(o);
      const artist = r.artistNames?.[0];
      const typo = r.name.length > 5 ? r.name.slice(0, 2) + r.name.slice(3) : `${r.name}x`;
      for (const query of [{ name: r.name, artist }, { name: typo, artist }, { name: r.name }, { name: r.name.split(' ')[0], artist }]) {
        const a = matchResource(seg, type, query);
        const b = matchResource(full, type, query);
        const left = a ? `${identityOf(type, seg.records(type).get(a.ordinal))} ${a.score}` : 'none';
        const right = b ? `${identityOf(type, full.records(type).get(b.ordinal))} ${b.score}` : 'none';
        if (left !== right && out.length < 10) out.push(`${type} ${JSON.stringify(query)}: ${left} vs ${right}`);
      }
    }
  }
  return out;
}

/** Keys of resources the full compile does not have (removed, or an old catalog id): not found. */
function goneKeys(seg: Catalog, full: Catalog, earlier: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [table, keys] of earlier)
    for (const key of keys) if (full.keys(table).get(key) < 0 && seg.keys(table).get(key) >= 0) out.push(`${table} ${key} found`);
  return out;
}

/** Multi-valued keys: every ISRC and UPC of the full compile, resolved to the same resources in the same order. */
function keyDisagreements(seg: Catalog, full: Catalog): string[] {
  const out: string[] = [];
  for (const [table, type, field] of [
    ['song.isrc', 'song', 'isrc'],
    ['album.upc', 'album', 'upc'],
  ] as const) {
    const records = full.records(type);
    for (let n = 0; n < records.count; n++) {
      const code = records.get<Record<string, string | null>>(n)[field];
      if (!code) continue;
      const key = table === 'album.upc' ? `0${code}`.slice(-13) : code;
      const ids = (cat: Catalog) =>
        cat
          .keys(table)
          .getAll(key)
          .map((o) => identityOf(type, cat.records(type).get(o)));
      if (ids(seg).join() !== ids(full).join()) out.push(`${table} ${key}: ${ids(seg)} vs ${ids(full)}`);
    }
  }
  return out;
}

/** Every id and catalog id a snapshot's base held, per key table. */
function baseKeys(seg: Catalog): Map<string, string[]> {
  // The base segment's own records (its snapshot directory may be pruned by now).
  const out = new Map<string, string[]>();
  for (const type of ['song', 'album', 'artist'] as const) {
    const table = seg.snapshot.records(SEGMENT_TYPES[type], 0);
    const records = Array.from({ length: table.count }, (_, o) => table.get<{ id: string; ommId: string }>(o));
    out.set(
      `${type}.id`,
      records.map((r) => r.id),
    );
    out.set(
      `${type}.omm`,
      records.map((r) => r.ommId),
    );
  }
  return out;
}

/** Every way a segmented snapshot disagrees with the full compile of the same raw catalog. */
export function everyDisagreement(dist: string, full: string): Record<string, string[]> {
  const seg = Catalog.open(dist);
  const next = Catalog.open(full);
  try {
    return {
      records: disagreements(seg, next),
      keys: [...keyDisagreements(seg, next), ...goneKeys(seg, next, baseKeys(seg))],
      orders: orderDisagreements(seg, next),
      search: searchDisagreements(seg, next),
      match: matchDisagreements(seg, next),
      verify: verifySnapshot(dist).problems.map((p) => `${p.file}: ${p.message}`),
    };
  } finally {
    seg.close();
    next.close();
  }
}
