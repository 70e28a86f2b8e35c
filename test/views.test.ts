import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCatalog } from '../src/compile/compile.js';
import { generateCatalog } from '../src/generate/generate.js';
import { Snapshot } from '../src/index-format/snapshot.js';
import { Catalog, RELATION_TARGET, RELATIONS } from '../src/catalog/catalog.js';
import { RawJson, toJsonBytes, toJsonText } from '../src/interfaces/json-chunks.js';
import { OM_RELATIONS, OM_TYPE, type OmRelation, type OmType } from '../src/interfaces/openmusic/spec.js';
import { OmRenderer } from '../src/interfaces/openmusic/render.js';
import { emptyInclude, type IncludeNode, type RenderSpec } from '../src/interfaces/v1/spec.js';
import { V1Renderer } from '../src/interfaces/v1/render.js';
import { VIEW_TYPES, VIEWS_VERSION } from '../src/catalog/views.js';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { tempDir } from './helpers/raw-fixture.js';
import { request } from 'undici';

const v1Spec = (include: IncludeNode = emptyInclude()): RenderSpec => ({
  include,
  limits: new Map(),
  sorts: new Map(),
  fields: new Map(),
  lang: undefined,
  attributes: 'full',
});
const omSpec = (include: OmRelation[] = []) => ({ include: new Set(include), limits: new Map(), minimal: new Set<OmType>(), lang: 'en-US' });

/** `include=rel` and, one level further, `include=rel.child` for every relationship of a type. */
function includeTrees(type: keyof typeof RELATIONS): IncludeNode[] {
  const trees: IncludeNode[] = [];
  const all = emptyInclude();
  for (const rel of Object.keys(RELATIONS[type])) {
    trees.push({ children: new Map([[rel, emptyInclude()]]) });
    all.children.set(rel, emptyInclude());
    for (const child of Object.keys(RELATIONS[RELATION_TARGET[rel] as keyof typeof RELATIONS])) {
      trees.push({ children: new Map([[rel, { children: new Map([[child, emptyInclude()]]) }]]) });
    }
  }
  trees.push(all);
  return trees;
}

/**
 * The views a snapshot stores are the renderers' own output: every resource of a generated
 * catalog (several scripts, lyrics, files), in both interfaces, alone and with each include,
 * is byte for byte what rendering it writes. Without the splice code (or with a renderer change
 * and no new views) these comparisons fail.
 */
describe('pre-rendered views', () => {
  let dist: string;
  let fast: Catalog;
  let slow: Catalog;
  beforeAll(async () => {
    const raw = tempDir('omm-views-raw-');
    await generateCatalog({ songs: 1500, seed: 23, out: raw });
    dist = tempDir('omm-views-dist-');
    await compileCatalog({ rawDir: raw, outDir: dist });
    fast = Catalog.open(dist);
    slow = Catalog.open(dist, { views: false });
  }, 120_000);
  afterAll(() => {
    fast.close();
    slow.close();
  });

  it('lists its views in the manifest, and a catalog opened with views: false ignores them', () => {
    expect(fast.snapshot.manifest.views?.version).toBe(VIEWS_VERSION);
    expect(fast.snapshot.manifest.views?.tables).toHaveLength(VIEW_TYPES.length * 2);
    expect(fast.views).not.toBeNull();
    expect(slow.views).toBeNull();
  });

  it('interface 1: every resource, alone and with each include, is what the renderer writes', () => {
    let compared = 0;
    for (const type of VIEW_TYPES) {
      const trees = type === 'playlist' ? [emptyInclude(), { children: new Map([['tracks', emptyInclude()]]) }] : [emptyInclude(), ...includeTrees(type)];
      for (const tree of trees) {
        const viaViews = new V1Renderer(fast, v1Spec(tree));
        const rendered = new V1Renderer(slow, v1Spec(tree));
        for (let o = 0; o < fast.count(type); o += tree.children.size === 0 ? 1 : 7) {
          const view = viaViews.resource(type, o);
          expect(view).toBeInstanceOf(RawJson);
          expect(toJsonBytes({ data: view }).toString(), `${type} ${o}`).toBe(JSON.stringify({ data: rendered.resource(type, o) }));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(3000);
  });

  it('interface 2: every resource, alone and with each include (lyrics too), is what the renderer writes', () => {
    let compared = 0;
    let withLyrics = 0;
    for (const type of VIEW_TYPES) {
      const om = OM_TYPE[type];
      const rels = Object.keys(OM_RELATIONS[om]) as OmRelation[];
      for (const include of [[], ...rels.map((r) => [r]), rels]) {
        const viaViews = new OmRenderer(fast, omSpec(include));
        const rendered = new OmRenderer(slow, omSpec(include));
        for (let o = 0; o < fast.count(type); o += include.length === 0 ? 1 : 7) {
          const expected = JSON.stringify(rendered.resource(om, o));
          expect(toJsonBytes(viaViews.resource(om, o)).toString(), `${om} ${o} ${include}`).toBe(expected);
          if (expected.includes('"lyrics":{')) withLyrics++;
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(2000);
    expect(withLyrics).toBeGreaterThan(0);
  });

  it('ignores views written by another renderer version, and renders the same bytes instead', () => {
    const snapshot = Snapshot.open(dist);
    const manifest = snapshot.manifest as { views?: { version: string } };
    manifest.views = { ...manifest.views!, version: `${VIEWS_VERSION}-older` };
    const older = new Catalog(snapshot);
    try {
      expect(older.views).toBeNull();
      const song = new V1Renderer(older, v1Spec()).resource('song', 3);
      expect(song).not.toBeInstanceOf(RawJson);
      expect(toJsonBytes(new V1Renderer(fast, v1Spec()).resource('song', 3)).toString()).toBe(JSON.stringify(song));
    } finally {
      older.close();
    }
  });

  it('a request that changes the view (fields, lang, a minimal view) renders instead', () => {
    const fields = new V1Renderer(fast, { ...v1Spec(), fields: new Map([['song', new Set(['name'])]]) });
    expect(fields.resource('song', 0)).not.toBeInstanceOf(RawJson);
    expect(new V1Renderer(fast, { ...v1Spec(), lang: 'fr' }).resource('song', 0)).not.toBeInstanceOf(RawJson);
    expect(new V1Renderer(fast, { ...v1Spec(), lang: 'fr' }).resource('album', 0)).toBeInstanceOf(RawJson);
    expect(new OmRenderer(fast, { ...omSpec(), minimal: new Set<OmType>(['songs']) }).resource('songs', 0)).not.toBeInstanceOf(RawJson);
  });

  it('toJsonBytes writes what JSON.stringify writes for plain values', () => {
    for (const value of [{ a: 1, b: undefined, c: [1, undefined, 'x\u00e9\u{1F600}'], d: { e: null, f: true } }, [], {}, 'str', 3.5, null, [{ k: () => 1 }]]) {
      expect(toJsonBytes(value).toString()).toBe(JSON.stringify(value));
    }
    // Numbers are written without JSON.stringify: the same text for every kind of number.
    const numbers = [
      0,
      -0,
      1,
      -1,
      25,
      4294967295,
      2 ** 53,
      -(2 ** 53) - 2,
      0.1,
      1 / 3,
      -2.5e-7,
      1e21,
      1.5e300,
      5e-324,
      Number.MAX_VALUE,
      NaN,
      Infinity,
      -Infinity,
    ];
    expect(toJsonBytes({ numbers, meta: { limit: 25, offset: 0, total: 1000 } }).toString()).toBe(
      JSON.stringify({ numbers, meta: { limit: 25, offset: 0, total: 1000 } }),
    );
    // Text between views, ASCII and not, short and long, around stored bytes.
    const view = new RawJson([Buffer.from('{"name":"\u00e9t\u00e9"}')]);
    const around = { a: view, 'k\u00e9y': '\u00e9\u{1F600}', long: 'x'.repeat(100), list: [view, 'y\u00e9'.repeat(40), view] };
    const stored = { name: '\u00e9t\u00e9' };
    const plain = { a: stored, 'k\u00e9y': '\u00e9\u{1F600}', long: 'x'.repeat(100), list: [stored, 'y\u00e9'.repeat(40), stored] };
    expect(toJsonBytes(around).toString()).toBe(JSON.stringify(plain));
  });

  it('toJsonText measures its bytes and lays them into a buffer it is given, at any offset', () => {
    const v1 = new V1Renderer(fast, v1Spec());
    const value = { data: v1.list('song', [0, 1, 2]), note: '\u00e9\u{1F600}' };
    const expected = Buffer.from(
      JSON.stringify({ data: [0, 1, 2].map((o) => JSON.parse(toJsonBytes(v1.resource('song', o)).toString())), note: '\u00e9\u{1F600}' }),
    );
    const text = toJsonText(value);
    expect(text.byteLength).toBe(expected.length);
    const out = Buffer.alloc(text.byteLength + 10, 0x2a);
    expect(text.writeInto(out, 7)).toBe(7 + text.byteLength);
    expect(out.subarray(7, 7 + text.byteLength).equals(expected)).toBe(true);
    expect(out.subarray(0, 7).toString() + out.subarray(7 + text.byteLength).toString()).toBe('**********');
  });

  it('the server sends the same bytes with views on and off', async () => {
    const on = await startServer({ snapshot: dist, port: 0, host: '127.0.0.1', log: null });
    const off = await startServer({ snapshot: dist, port: 0, host: '127.0.0.1', log: null, views: false });
    const servers: RunningServer[] = [on, off];
    try {
      const song = fast.song(5);
      const isrcs = Array.from({ length: 40 }, (_, i) => fast.song(i).isrc)
        .filter(Boolean)
        .slice(0, 10);
      for (const path of [
        `/v1/song/${song.id}`,
        `/v1/song/${song.id}?include=albums,artists`,
        `/v1/song/${song.id}?include=albums.artists`,
        `/v1/songs/lookup?isrc=${isrcs.join(',')}`,
        `/v1/album/${fast.album(3).id}?include=tracks`,
        `/v1/songs?limit=50`,
        `/v1/search?term=${encodeURIComponent(song.name)}`,
        `/openmusic/songs/${song.id}`,
        `/openmusic/songs/${song.id}?include=albums,artists,lyrics`,
        `/openmusic/songs?isrc=${isrcs.join(',')}`,
        `/openmusic/albums/${fast.album(3).id}?include=tracks,artists`,
        `/openmusic/search/songs?term=${encodeURIComponent(song.name)}`,
      ]) {
        const [a, b] = await Promise.all(
          servers.map(async (s) => {
            const res = await request(`${s.url}${path}`);
            return { status: res.statusCode, length: res.headers['content-length'], etag: res.headers.etag, body: await res.body.text() };
          }),
        );
        expect(a.status, path).toBe(200);
        expect(a, path).toEqual(b);
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

/**
 * Snapshots keep their views; a server reads them only when their version is its own. This
 * digest of what the renderers are made of fails the suite when they change, so that the change
 * also bumps VIEWS_VERSION (src/catalog/views.ts) and then updates the digest here. A change
 * that writes the same bytes (the lists' touch() ahead of rendering, 2026-11-28; a view a takedown
 * made stale rendered from its record instead, 2026-11-29) updates the
 * digest alone; the compile's byte-identical snapshot shows it.
 */
describe('views version', () => {
  it('names the renderers it was written by', () => {
    const sources = [
      'src/interfaces/v1/render.ts',
      'src/interfaces/v1/attributes.ts',
      'src/interfaces/openmusic/render.ts',
      'src/interfaces/openmusic/artwork.ts',
      'src/catalog/lyrics.ts',
      'src/catalog/records.ts',
    ];
    const digest = createHash('sha256');
    for (const file of sources) digest.update(readFileSync(new URL(`../${file}`, import.meta.url)));
    const renderers = digest.digest('hex').slice(0, 16);
    expect({ version: VIEWS_VERSION, renderers }, 'a renderer changed: bump VIEWS_VERSION in src/catalog/views.ts, then put the new digest here').toEqual({
      version: '3',
      renderers: '39e20b9fc8c51d0f',
    });
  });
});
