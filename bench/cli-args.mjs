// Small helpers the benchmark scripts share.

/** The value after `--name` on the command line, or `fallback`. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`, 2);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** A number after `--name`, or `fallback` as a number; a missing or non-numeric value stops the script, naming the option. */
export function numberArg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`, 2);
  if (i < 0) return Number(fallback);
  const value = process.argv[i + 1];
  const n = Number(value);
  if (value === undefined || value.startsWith('--') || value.trim() === '' || !Number.isFinite(n)) {
    console.error(`--${name} needs a number (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`);
    process.exit(2);
  }
  return n;
}

/** A seeded linear congruential generator in [0, 1): the same queries on every run. */
export function seeded(seed) {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

// `--help` on any benchmark script prints its opening comment (what it does, its options) and
// exits before any work starts.
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const { readFileSync } = await import('node:fs');
  const lines = readFileSync(process.argv[1], 'utf8').split('\n');
  const start = lines[0].startsWith('#!') ? 1 : 0;
  const comment = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('//')) break;
    comment.push(line.replace(/^\/\/ ?/, ''));
  }
  process.stdout.write(`${comment.join('\n')}\n`);
  process.exit(0);
}
