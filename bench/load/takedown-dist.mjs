// A dist directory beside a bench snapshot whose current snapshot is that one plus a deletes
// set (omm takedown): the snapshot's directory hard-linked (nothing copied), then albums taken
// down by UPC, spread over the catalog, until their tracks make `songs` songs. Shared by
// bench:load (--takedown) and bench:takedown.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../../dist/catalog/catalog.js';

const omm = fileURLToPath(new URL('../../bin/omm', import.meta.url));

/** A fresh dist directory `to` serving `dist`'s current snapshot (hard links). */
export function linkedDist(dist, to) {
  rmSync(to, { recursive: true, force: true });
  const current = readFileSync(join(dist, 'current'), 'utf8').trim();
  mkdirSync(join(to, 'snapshots'), { recursive: true });
  execFileSync('cp', ['-al', join(dist, current), join(to, current)]);
  writeFileSync(join(to, 'current'), `${current}\n`);
  return to;
}

/** UPCs of albums spread over the catalog (every k-th with a UPC) whose tracks add up to `songs`, or `albums` albums. */
export function albumsToTakeDown(dist, { songs = Infinity, albums = Infinity }) {
  const cat = Catalog.open(dist, { views: false });
  try {
    const count = cat.count('album');
    const tracks = cat.relation('album.tracks');
    const wanted = Number.isFinite(albums) ? albums : Math.ceil((songs / cat.count('song')) * count * 1.2);
    const step = Math.max(1, Math.floor(count / wanted));
    const upcs = [];
    let covered = 0;
    for (let o = 0; o < count && covered < songs && upcs.length < albums; o += step) {
      const { upc } = cat.album(o);
      if (!upc) continue;
      upcs.push(upc);
      covered += tracks.count(o);
    }
    return upcs;
  } finally {
    cat.close();
  }
}

/** Runs `omm takedown <dist> --file <list of upcs>`: its report (--json) and wall time. */
export function takedownUpcs(dist, upcs, listFile) {
  writeFileSync(listFile, `${upcs.map((u) => `upc:${u}`).join('\n')}\n`);
  const started = performance.now();
  const out = execFileSync(process.execPath, [omm, 'takedown', dist, '--file', listFile, '--json'], { encoding: 'utf8' });
  return { ...JSON.parse(out), wallMs: Math.round(performance.now() - started) };
}
