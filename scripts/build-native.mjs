// Builds the optional native mmap addon (native/). Never fails the install: without the addon
// the reader falls back to positioned reads.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const nativeDir = fileURLToPath(new URL('../native/', import.meta.url));
if (process.env.OMM_SKIP_NATIVE === '1' || !existsSync(`${nativeDir}binding.gyp`)) {
  console.log('omm: native mmap addon skipped; using the pure-JS reader');
  process.exit(0);
}
const result = spawnSync('node-gyp', ['rebuild'], { cwd: nativeDir, stdio: 'inherit', shell: process.platform === 'win32' });
if (result.status !== 0) console.warn('omm: native mmap addon not built; using the pure-JS reader');
process.exit(0);
