// Small helpers the benchmark scripts share.

/** The value after `--name` on the command line, or `fallback`. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`, 2);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** A seeded linear congruential generator in [0, 1): the same queries on every run. */
export function seeded(seed) {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
}
