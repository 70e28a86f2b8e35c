import { invalidParameters, type ErrorDetail } from './api-error.js';

const NO_NAMES: readonly string[] = [];

/**
 * A request's query string with validation that collects every problem before answering, so a
 * 400 names each bad parameter and value at once.
 */
export class Query {
  readonly problems: ErrorDetail[] = [];
  private parsed: Map<string, string[]> | null = null;
  private nameList: string[] | null = null;

  /** `search`: the query string without its `?` (parsed on first use; most requests have none). */
  constructor(private readonly search: string) {}

  /** Every parameter's values in order, decoded as URLSearchParams decodes them; parsed once. */
  private get values(): Map<string, string[]> {
    if (!this.parsed) {
      const parsed = new Map<string, string[]>();
      if (this.search.length > 0) {
        for (const [name, value] of new URLSearchParams(this.search)) {
          const list = parsed.get(name);
          if (list) list.push(value);
          else parsed.set(name, [value]);
        }
      }
      this.parsed = parsed;
    }
    return this.parsed;
  }

  /** The parameter's value; a parameter given twice is a problem (which one would win?). */
  get(name: string): string | undefined {
    if (this.search.length === 0) return undefined;
    const all = this.values.get(name);
    if (!all) return undefined;
    if (all.length > 1) {
      this.problem(name, all, `${name} is given ${all.length} times; give it once`);
      return all[0];
    }
    return all[0];
  }

  /** The first value of a parameter (for messages about it), or undefined. */
  first(name: string): string | undefined {
    return this.values.get(name)?.[0];
  }

  has(name: string): boolean {
    return this.search.length > 0 && this.values.has(name);
  }

  /** The parameters' names, in order (the same array each call: do not change it). */
  names(): readonly string[] {
    if (this.search.length === 0) return NO_NAMES;
    return (this.nameList ??= [...this.values.keys()]);
  }

  problem(param: string, value: unknown, message: string): void {
    this.problems.push({ message, param, value: value ?? null });
  }

  /** Throws one 400 listing every problem found so far. */
  check(): void {
    if (this.problems.length > 0) throw invalidParameters(this.problems);
  }

  /** An integer in [min, max], or the default when absent. */
  int(name: string, min: number, max: number, fallback: number): number {
    const raw = this.get(name);
    if (raw === undefined) return fallback;
    return this.intValue(name, raw, min, max) ?? fallback;
  }

  intValue(name: string, raw: string, min: number, max: number): number | undefined {
    if (!/^-?[0-9]{1,16}$/.test(raw.trim())) {
      this.problem(name, raw, `${name} must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'up' : max}`);
      return undefined;
    }
    const n = Number(raw.trim());
    if (n < min || n > max) {
      this.problem(name, raw, max === Number.MAX_SAFE_INTEGER ? `${name} must be ${min} or more` : `${name} must be from ${min} to ${max}`);
      return undefined;
    }
    return n;
  }

  /** One of `allowed`, or the default when absent. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.get(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problem(name, raw, `${name} must be one of ${allowed.join(', ')}`);
    return fallback;
  }
}

/** "a, b,,c" -> ["a", "b", "c"]. */
export function commaList(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item.length > 0) out.push(item);
  }
  return out;
}
