import { CliError } from './cli-error.js';

/** A whole-number flag within [min, max], or a CliError naming the flag and what it got. */
export function integer(flag: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (value === undefined || !/^\d+$/.test(value.trim()) || n < min || n > max)
    throw new CliError(`${flag} must be a whole number ${min}..${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** A number flag above zero. */
export function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`${flag} must be a number > 0, got ${JSON.stringify(value)}`);
  return n;
}
