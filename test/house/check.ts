import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Room } from './rooms.js';

/** One way the code disagrees with the map, in words a reader can act on. */
export interface HouseProblem {
  readonly kind: 'unknown-room' | 'wrong-way' | 'package' | 'circle' | 'opaque' | 'unused';
  readonly message: string;
}

/** `import ... from 'x'`, `export ... from "x"`, `import 'x'`, `import("x")` (either quote). */
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*(['"])([^'"]+)\1|(?:^|\n)\s*import\s*(['"])([^'"]+)\3|\bimport\(\s*(['"])([^'"]+)\5\s*\)/g;
/** A dynamic import of something other than one string: the check cannot tell where it points. */
const OPAQUE_IMPORT = /\bimport\(\s*(?!['"][^'"]*['"]\s*\))/;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** A file's text with its comments taken out. */
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"])\/\/.*$/gm, '$1');

/** The specifiers a TypeScript file imports or re-exports (comments aside). */
export function importsOf(text: string): string[] {
  return [...withoutComments(text).matchAll(IMPORT)].map((m) => m[2] ?? m[4] ?? m[6]);
}

/** Whether the file holds a dynamic import whose target is not one string literal. */
export function hasOpaqueImport(text: string): boolean {
  return OPAQUE_IMPORT.test(withoutComments(text));
}

const roomOf = (srcDir: string, file: string): string => relative(srcDir, file).split(sep)[0];
const isTest = (file: string): boolean => file.endsWith('.test.ts');

/**
 * Checks every .ts file under `srcDir` against `rooms`: each file sits in a room on the map;
 * it imports only from its own room or the rooms its room lists; its non-test code imports only
 * node built-ins and its room's packages; and no files import each other, directly or through
 * others (type-only imports count: they couple the files just the same).
 */
export function checkHouse(srcDir: string, rooms: Readonly<Record<string, Room>>): HouseProblem[] {
  const root = resolve(srcDir);
  const files = sourceFiles(root);
  const problems: HouseProblem[] = [];
  const edges = new Map<string, string[]>();
  const used = new Map<string, Set<string>>();
  const usedPackages = new Map<string, Set<string>>();
  const name = (file: string) => `src/${relative(root, file).split(sep).join('/')}`;
  for (const file of files) {
    const room = roomOf(root, file);
    const rules = rooms[room];
    if (!rules) {
      problems.push({ kind: 'unknown-room', message: `${name(file)} is in src/${room}/, which the map of the house (test/house/rooms.ts) does not list` });
      continue;
    }
    const targets: string[] = [];
    const text = readFileSync(file, 'utf8');
    if (hasOpaqueImport(text))
      problems.push({ kind: 'opaque', message: `${name(file)} imports something other than a string literal; the map cannot check where it points` });
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!isTest(file)) usedPackages.set(room, (usedPackages.get(room) ?? new Set()).add(pkg));
        if (!spec.startsWith('node:') && !isTest(file) && !rules.packages.includes(pkg)) {
          problems.push({
            kind: 'package',
            message: `${name(file)} imports the package ${pkg}; ${room}/ may use ${rules.packages.join(', ') || 'no package'} besides node: built-ins`,
          });
        }
        continue;
      }
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      if (!target.startsWith(root + sep)) continue;
      targets.push(target);
      const to = roomOf(root, target);
      if (to !== room) used.set(room, (used.get(room) ?? new Set()).add(to));
      if (to !== room && !rules.imports.includes(to)) {
        const allowed = rules.imports.length > 0 ? rules.imports.map((r) => `${r}/`).join(', ') : 'no other room';
        problems.push({ kind: 'wrong-way', message: `${name(file)} imports ${name(target)}: ${room}/ may import from ${allowed}, not from ${to}/` });
      }
    }
    edges.set(file, targets);
  }
  // The map lists what each room uses, no more: a room it may import but does not is a stale line.
  for (const [room, rules] of Object.entries(rooms)) {
    if (!files.some((f) => roomOf(root, f) === room)) continue;
    const unused = rules.imports.filter((r) => !used.get(room)?.has(r));
    if (unused.length > 0)
      problems.push({
        kind: 'unused',
        message: `${room}/ may import from ${unused.map((r) => `${r}/`).join(', ')} but does not: narrow its line in test/house/rooms.ts`,
      });
    const unusedPackages = rules.packages.filter((p) => !usedPackages.get(room)?.has(p));
    if (unusedPackages.length > 0)
      problems.push({
        kind: 'unused',
        message: `${room}/ may use the package ${unusedPackages.join(', ')} but does not: narrow its line in test/house/rooms.ts`,
      });
  }
  for (const circle of circles(edges)) {
    problems.push({ kind: 'circle', message: `files import each other: ${circle.map(name).join(' -> ')} -> ${name(circle[0])}` });
  }
  return problems;
}

/** Every strongly connected group of more than one file (or a file importing itself), as one path around it. */
function circles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (edges.get(file) ?? []).includes(file)) found.push(pathAround(new Set(group), edges));
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** A shortest loop through a group's first file, staying inside the group. */
function pathAround(group: Set<string>, edges: Map<string, string[]>): string[] {
  const start = [...group].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const to of edges.get(file) ?? []) {
      if (!group.has(to)) continue;
      if (to === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return path;
      }
      if (!previous.has(to)) {
        previous.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start];
}
