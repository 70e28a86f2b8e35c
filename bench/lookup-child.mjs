// Times opening a snapshot and random key lookups (song by local id: key table + record decode).
import { Snapshot } from '../dist/index-format/index.js';
import { seeded } from './cli-args.mjs';

const [dist, mode] = process.argv.slice(2);
const t0 = process.hrtime.bigint();
const snap = Snapshot.open(dist, mode ? { mode: /** @type {'mmap' | 'pread'} */ (mode) } : {});
const openMs = Number(process.hrtime.bigint() - t0) / 1e6;
const songs = snap.records('songs');
const ids = snap.keys('song.id');
// Ids to look up: read a spread of records first (not timed), then shuffle deterministically.
/** @type {string[]} */
const sample = [];
const next = seeded(12345);
for (let i = 0; i < 20000; i++) sample.push(/** @type {{ id: string }} */ (songs.get(Math.floor(next() * songs.count))).id);
const times = new Float64Array(sample.length);
let checksum = 0;
for (let round = 0; round < 2; round++) {
  for (let i = 0; i < sample.length; i++) {
    const a = process.hrtime.bigint();
    const record = /** @type {{ name: string }} */ (songs.get(ids.get(sample[i])));
    times[i] = Number(process.hrtime.bigint() - a) / 1000;
    checksum += record.name.length;
  }
}
times.sort();
console.log(
  JSON.stringify({
    readerMode: snap.manifestShard.file.mode,
    openMs,
    lookupMedianUs: times[Math.floor(times.length / 2)],
    lookupP99Us: times[Math.floor(times.length * 0.99)],
    lookups: sample.length,
    checksum,
  }),
);
