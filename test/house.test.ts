import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkHouse, importsOf } from './house/check.js';
import { ROOMS } from './house/rooms.js';
import { tempDir } from './helpers/raw-fixture.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const messages = (dir: string) => checkHouse(dir, ROOMS).map((p) => p.message);

/** A copy of src/ to break on purpose. */
function copyOfSrc(): string {
  const dir = join(tempDir('omm-house-'), 'src');
  cpSync(src, dir, { recursive: true });
  return dir;
}

describe('the house (test/house/rooms.ts)', () => {
  it('holds: every import points down the map, no package a room does not list, no files importing each other', () => {
    expect(messages(src)).toEqual([]);
  });

  it('agrees with the table of docs/architecture.md: the same rooms, in order, each with the same rooms and packages', () => {
    const page = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');
    const list = (cell: string) => (cell.trim() === '—' ? [] : cell.split(',').map((x) => x.trim()));
    const rows = [...page.matchAll(/^\| \[`([a-z-]+)\/`\]\([^)]*\) \| [^|]* \| ([^|]*) \| ([^|]*) \|$/gm)];
    const table = rows.map((m) => ({ room: m[1], imports: list(m[2]), packages: list(m[3]) }));
    expect(table).toEqual(Object.entries(ROOMS).map(([room, rules]) => ({ room, imports: [...rules.imports], packages: [...rules.packages] })));
  });

  it('lists its rooms bottom up, each a folder of src/', () => {
    const lower = (room: string) => Object.keys(ROOMS).indexOf(room);
    for (const room of Object.keys(ROOMS)) expect(existsSync(join(src, room)), `src/${room}/`).toBe(true);
    for (const [room, rules] of Object.entries(ROOMS)) {
      for (const below of rules.imports) expect(lower(below), `${room} imports ${below}, listed above it`).toBeLessThan(lower(room));
    }
  });

  it('fails on an import that points up', () => {
    const dir = copyOfSrc();
    appendFileSync(join(dir, 'index-format', 'constants.ts'), "\nimport { JSON_TYPE } from '../serve/text-body.js';\n");
    expect(messages(dir)).toEqual([
      'src/index-format/constants.ts imports src/serve/text-body.ts: index-format/ may import from no other room, not from serve/',
    ]);
  });

  it('fails on an import between peers, and on one from a renderer into the server', () => {
    const dir = copyOfSrc();
    appendFileSync(join(dir, 'compile', 'compile.ts'), "\nexport { startServer } from '../serve/server.js';\n");
    appendFileSync(join(dir, 'interfaces', 'v1', 'render.ts'), "\nimport type { Query } from '../../serve/query.js';\n");
    expect(messages(dir)).toEqual([
      'src/compile/compile.ts imports src/serve/server.ts: compile/ may import from raw/, sort/, index-format/, catalog/, interfaces/, search/, not from serve/',
      'src/interfaces/v1/render.ts imports src/serve/query.ts: interfaces/ may import from catalog/, not from serve/',
    ]);
  });

  it('fails on files that import each other, directly or through a third', () => {
    const dir = copyOfSrc();
    writeFileSync(join(dir, 'catalog', 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'catalog', 'b.ts'), "import type { C } from './c.js';\nexport const b = (c?: C) => c;\n");
    writeFileSync(join(dir, 'catalog', 'c.ts'), "import { a } from './a.js';\nexport type C = typeof a;\n");
    expect(messages(dir)).toEqual(['files import each other: src/catalog/a.ts -> src/catalog/b.ts -> src/catalog/c.ts -> src/catalog/a.ts']);
  });

  it('fails on a package a room does not list, and on a folder the map does not name', () => {
    const dir = copyOfSrc();
    appendFileSync(join(dir, 'search', 'search-engine.ts'), "\nimport 'msgpackr';\n");
    mkdirSync(join(dir, 'util'));
    writeFileSync(join(dir, 'util', 'x.ts'), 'export const x = 1;\n');
    expect(messages(dir)).toEqual([
      'src/search/search-engine.ts imports the package msgpackr; search/ may use no package besides node: built-ins',
      'src/util/x.ts is in src/util/, which the map of the house (test/house/rooms.ts) does not list',
    ]);
  });

  it('fails on a dynamic import it cannot follow, and on a line of the map wider than the code', () => {
    const dir = copyOfSrc();
    appendFileSync(join(dir, 'diff', 'snapshot-diff.ts'), '\nexport const load = (name: string) => import(name);\n');
    const wider = { ...ROOMS, diff: { ...ROOMS.diff, imports: ['catalog', 'index-format'], packages: ['msgpackr'] } };
    expect(checkHouse(dir, wider).map((p) => p.message)).toEqual([
      'src/diff/snapshot-diff.ts imports something other than a string literal; the map cannot check where it points',
      'diff/ may import from index-format/ but does not: narrow its line in test/house/rooms.ts',
      'diff/ may use the package msgpackr but does not: narrow its line in test/house/rooms.ts',
    ]);
  });

  it('reads imports, re-exports, side-effect and dynamic imports, and skips comments', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export * from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "// import { g } from './g.js';",
      "/* import { h } from './h.js'; */",
      "import {\n  i,\n  j,\n} from './ij.js';",
      'import { k } from "./k.js";',
      'export * from "./l.js";',
      'import "./m.js";',
      'const n = await import("./n.js");',
      "type O = typeof import('./o.js');",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', './ij.js', './k.js', './l.js', './m.js', './n.js', './o.js']);
  });
});
