#!/usr/bin/env node
// Installs what the peer servers need (better-sqlite3) into bench/.deps, outside the project's
// own dependencies: `npm install` stays light for users and CI, and `npm run bench` installs
// this once. better-sqlite3 12.x is the newest line that supports Node 20.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEPS_DIR = fileURLToPath(new URL('../.deps', import.meta.url));
const SQLITE = 'better-sqlite3@12.9.0';

export function ensurePeerDeps() {
  if (existsSync(join(DEPS_DIR, 'node_modules', 'better-sqlite3', 'package.json'))) return;
  mkdirSync(DEPS_DIR, { recursive: true });
  writeFileSync(join(DEPS_DIR, 'package.json'), JSON.stringify({ name: 'omm-bench-peer-deps', private: true }, null, 2));
  console.error(`installing ${SQLITE} into ${DEPS_DIR} (once)`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', DEPS_DIR, SQLITE], { stdio: 'inherit' });
  // npm may skip a package's install script (allowScripts); then build the binding explicitly.
  const probe = `require(${JSON.stringify(join(DEPS_DIR, 'node_modules', 'better-sqlite3'))})(':memory:').close()`;
  try {
    execFileSync(process.execPath, ['-e', probe], { stdio: 'ignore' });
  } catch {
    execFileSync('npx', ['--yes', 'node-gyp', 'rebuild', '--release'], { cwd: join(DEPS_DIR, 'node_modules', 'better-sqlite3'), stdio: 'inherit' });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensurePeerDeps();
