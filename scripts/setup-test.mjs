#!/usr/bin/env node
// Installs what the whole test suite needs beyond `npm ci`: nginx (the scale-out test), chromium
// (the explorer in a browser) and xz (MusicBrainz archive fixtures), with apt-get, as root or
// through passwordless sudo. Run once per machine: `npm run setup:test` (`.ci/run` does). Exits 1
// with the reason when something is missing and cannot be installed. Tests never install
// anything themselves: under CI=true a missing tool fails its test, elsewhere it skips.
import { spawnSync } from 'node:child_process';

const TOOLS = [
  { name: 'nginx', packageName: 'nginx', paths: ['nginx', '/usr/sbin/nginx'], args: ['-v'] },
  { name: 'chromium', packageName: 'chromium', paths: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'], args: ['--version'] },
  { name: 'xz', packageName: 'xz-utils', paths: ['xz'], args: ['--version'] },
];

const runs = (path, args) => spawnSync(path, args, { stdio: 'ignore' }).status === 0;
const found = (tool) => tool.paths.find((path) => runs(path, tool.args));
const fail = (why) => {
  console.error(`setup:test: ${why}`);
  process.exit(1);
};

const absent = TOOLS.filter((tool) => !found(tool));
if (absent.length === 0) {
  for (const tool of TOOLS) console.log(`setup:test: ${tool.name} ${found(tool)}`);
  process.exit(0);
}
const root = process.getuid?.() === 0;
const sudo = !root && runs('sudo', ['-n', 'true']);
if (!root && !sudo) fail(`${absent.map((t) => t.name).join(', ')} missing, and this user cannot install packages (not root, no passwordless sudo)`);
if (!runs('apt-get', ['--version']))
  fail(
    `${absent.map((t) => t.name).join(', ')} missing, and there is no apt-get: install ${absent.map((t) => t.packageName).join(' ')} with your package manager`,
  );
const apt = (args) => {
  const argv = sudo ? ['sudo', '-n', 'apt-get', ...args] : ['apt-get', ...args];
  console.log(`setup:test: ${argv.join(' ')}`);
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) fail(`${argv.join(' ')} failed (exit ${r.status})`);
};
apt(['update', '-qq']);
apt(['install', '-y', '-qq', '--no-install-recommends', ...absent.map((t) => t.packageName)]);
for (const tool of TOOLS) {
  const path = found(tool);
  if (!path) fail(`${tool.name} installed but not found (${tool.paths.join(', ')})`);
  console.log(`setup:test: ${tool.name} ${path}`);
}
