// Runs one compile and prints its figures as JSON (peak RSS covers the worker thread too).
import { compileCatalog } from '../dist/compile/index.js';

const [raw, dist] = process.argv.slice(2);
const result = await compileCatalog({ rawDir: raw, outDir: dist });
const rows = result.manifest.sources.reduce((sum, s) => sum + s.rows, 0);
const bytes = result.manifest.shards.reduce((sum, s) => sum + s.size, 0);
console.log(
  JSON.stringify({
    seconds: result.seconds,
    rows,
    rowsPerSecond: Math.round(rows / result.seconds),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    snapshotMiB: +(bytes / 2 ** 20).toFixed(1),
    shards: result.manifest.shards.length + 1,
    buildId: result.buildId,
    phases: Object.fromEntries(result.phases.map((p) => [p.phase, +p.seconds.toFixed(2)])),
  }),
);
