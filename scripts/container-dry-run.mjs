#!/usr/bin/env node
// The Containerfile's two stages run on this machine without a container engine: the files each
// COPY names, copied into a fresh directory, then the stage's commands (npm ci with the native
// addon, the build, the prune). Then the runtime stage's files alone compile the bundled sample
// and serve it, with /healthz and the explorer answering. It checks what a static read cannot:
// that the build stage has everything `npm ci` and `npm run build` need, and the runtime stage
// everything `omm` needs at run time. The base image's own layers are the one thing not run.
//   node scripts/container-dry-run.mjs
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'omm-container-'));
const build = join(work, 'build');
const runtime = join(work, 'runtime');
const say = (line) => console.log(`container-dry-run: ${line}`);
const lines = readFileSync(join(root, 'Containerfile'), 'utf8').replace(/\\\n/g, ' ').split('\n');
const copies = lines.filter((l) => /^COPY\s/.test(l)).map((l) => l.trim().split(/\s+/).slice(1));

function copy(args, stageDir, fromDir) {
  const sources = args.filter((a) => !a.startsWith('--'));
  const target = sources.pop();
  for (const source of sources) {
    const from = fromDir ? join(fromDir, source.replace(/^\/app\//, '')) : join(root, source);
    const to = target.endsWith('/') ? join(stageDir, target, source.split('/').pop()) : join(stageDir, target.replace(/^\.\//, ''));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true });
  }
}
const run = (cwd, cmd, args, env = {}) => execFileSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });

try {
  const runtimeStart = copies.findIndex((args) => args.includes('--from=build'));
  say(`build stage in ${build}`);
  mkdirSync(build);
  for (const args of copies.slice(0, runtimeStart)) {
    copy(args, build);
    // The stage runs npm ci right after its sources are in, before the TypeScript is copied.
    if (args.includes('native/')) run(build, 'npm', ['ci', '--no-audit', '--no-fund']);
  }
  run(build, 'npm', ['run', 'build']);
  run(build, 'npm', ['prune', '--omit=dev', '--no-audit', '--no-fund']);
  say(`runtime stage in ${runtime}`);
  mkdirSync(runtime);
  for (const args of copies.slice(runtimeStart)) copy(args, runtime, args.includes('--from=build') ? build : undefined);
  const omm = join(runtime, 'bin', 'omm');
  const dist = join(work, 'sample-dist');
  run(runtime, process.execPath, [omm, 'compile', join(root, 'data', 'raw'), '-o', dist, '-q']);
  run(runtime, process.execPath, [omm, 'publish', '--help'], { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
  const server = spawn(process.execPath, [omm, 'serve', dist, '--port', '18123'], { cwd: runtime, stdio: ['ignore', 'inherit', 'pipe'] });
  let err = '';
  server.stderr.on('data', (c) => (err += c));
  for (let i = 0; !err.includes('serving snapshot'); i++) {
    if (i > 200) throw new Error(`the runtime stage's omm serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!err.includes('shards read by mmap')) throw new Error(`the runtime stage did not load the native addon: ${err}`);
  for (const [path, accept] of [
    ['/healthz', 'application/json'],
    ['/', 'text/html'],
    ['/v1/', 'application/json'],
  ]) {
    const res = await fetch(`http://127.0.0.1:18123${path}`, { headers: { accept } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status} from the runtime stage`);
    say(`GET ${path} (${accept}): ${res.status}, ${(await res.text()).length} bytes`);
  }
  server.kill('SIGTERM');
  say('both stages work: npm ci and the addon, the build, and the runtime files alone serve the sample');
} finally {
  rmSync(work, { recursive: true, force: true });
}
