#!/usr/bin/env node
// The explorer's screenshots in docs/screenshots/ (search.png, song.png, album.png), made from
// the bundled sample: builds (npm run build), compiles data/raw into a temporary directory,
// serves it, and drives Debian's chromium with playwright-core. Run by hand:
//
//   node scripts/explorer-screenshots.mjs [--no-build]
//
// Chromium: /usr/bin/chromium (apt-get install chromium); installed here when missing and run
// as root where apt-get exists. Artwork is loaded from the catalog's own URLs; a machine without
// network shows the explorer's empty artwork boxes instead, as a browser would.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'docs', 'screenshots');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const isRoot = process.getuid?.() === 0;

/** Pages of the sample: a song with an ISRC, a release date and three artists; an album on three discs. */
const SONG = '/song/0puf9yIluy9W0vpMEUoAnN';
const ALBUM = '/album/2n2LvBVabXSthRaLEDGGSe';
const TERM = 'love';

function chromiumPath() {
  let found = CHROMIUM.find((path) => existsSync(path));
  if (!found && isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('installing chromium (apt-get update && apt-get install -y chromium)');
    execFileSync('sh', ['-c', 'apt-get update && apt-get install -y --no-install-recommends chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    found = CHROMIUM.find((path) => existsSync(path));
  }
  if (!found) throw new Error(`no chromium at ${CHROMIUM.join(', ')}: apt-get install chromium`);
  return found;
}

async function main() {
  if (!process.argv.includes('--no-build')) execSync('npm run build', { cwd: root, stdio: 'inherit' });
  const { compileCatalog } = await import(pathToFileURL(join(root, 'dist', 'compile', 'index.js')).href);
  const { startServer } = await import(pathToFileURL(join(root, 'dist', 'serve', 'server.js')).href);
  const { explorerSite } = await import(pathToFileURL(join(root, 'dist', 'explorer', 'index.js')).href);
  const work = mkdtempSync(join(tmpdir(), 'omm-screenshots-'));
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: isRoot ? ['--no-sandbox'] : [] });
  let server;
  try {
    await compileCatalog({ rawDir: join(root, 'data', 'raw'), outDir: work });
    server = await startServer({ snapshot: work, port: 0, host: '127.0.0.1', site: explorerSite });
    mkdirSync(outDir, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, colorScheme: 'light' });
    const settle = () => page.waitForLoadState('networkidle').catch(() => undefined);

    await page.goto(`${server.url}/`);
    await page.getByRole('combobox').focus();
    await page.keyboard.type(TERM, { delay: 60 });
    await page.getByRole('listbox').waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await settle();
    await page.screenshot({ path: join(outDir, 'search.png') });

    for (const [path, file] of [
      [SONG, 'song.png'],
      [ALBUM, 'album.png'],
    ]) {
      await page.goto(`${server.url}${path}`);
      await settle();
      await page.screenshot({ path: join(outDir, file), fullPage: true });
    }
    console.log(`wrote ${['search.png', 'song.png', 'album.png'].map((f) => join('docs', 'screenshots', f)).join(', ')}`);
  } finally {
    await browser.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
