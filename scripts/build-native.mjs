// Builds the optional native mmap addon (native/) with node-gyp. Never fails the install:
// without the addon the reader falls back to positioned reads (docs/native-reader.md).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const nativeDir = fileURLToPath(new URL('../native/', import.meta.url));
const skip = (why) => {
  console.warn(`omm: native mmap addon not built (${why}); using the pure-JS reader`);
  process.exit(0);
};
if (process.env.OMM_SKIP_NATIVE === '1') skip('OMM_SKIP_NATIVE=1');
if (!existsSync(join(nativeDir, 'binding.gyp'))) skip('no native/binding.gyp');

// node-gyp: npm's lifecycle PATH, npm's own setting, or the copy bundled with npm.
const candidates = [
  process.env.npm_config_node_gyp,
  join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
].filter((p) => p && existsSync(p));
const command = candidates.length > 0 ? [process.execPath, candidates[0]] : ['node-gyp'];
const args = ['rebuild'];
// Build against the headers of the running Node when they are installed locally (no download).
const nodedir = process.env.npm_config_nodedir ?? (existsSync('/usr/include/node/node_api.h') ? '/usr' : undefined);
if (nodedir) args.push(`--nodedir=${nodedir}`);

const result = spawnSync(command[0], [...command.slice(1), ...args], { cwd: nativeDir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
if (result.status !== 0) {
  const detail = `${result.error?.message ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
  skip(`node-gyp failed: ${detail || `exit ${result.status}`}`);
}
console.log('omm: native mmap addon built (native/build/Release/omm_mmap.node)');
