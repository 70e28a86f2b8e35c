import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What the whole suite needs beyond `npm ci`: `../shared` beside the project and the tools that
 * `npm run setup:test` installs (nginx, chromium, xz). Under CI (`CI=true`) each is there, and a
 * test that finds one missing fails; elsewhere it skips and says why. No test installs anything.
 */
export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

/** ../shared, beside the project. */
export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url));

/**
 * Null when `present`; else why not, printed so the skip is seen. Under CI it throws instead:
 * a requirement missing there is a failure, never a silent pass.
 */
export function missing(what: string, present: boolean, remedy: string): string | null {
  if (present) return null;
  const reason = `${what} is missing (${remedy})`;
  if (IN_CI) throw new Error(`CI=true, and ${reason}`);
  process.stderr.write(`skipped: ${reason}\n`);
  return reason;
}

/** Why a path under ../shared cannot be read here, or null (throws under CI). */
export function missingShared(path: string): string | null {
  return missing(path, existsSync(path), '../shared is laid beside the project in CI');
}

/** The first of `candidates` that runs with `versionArgs`, or undefined. */
export function findTool(candidates: readonly string[], versionArgs: readonly string[] = ['--version']): string | undefined {
  return candidates.find((path) => spawnSync(path, versionArgs, { stdio: 'ignore' }).status === 0);
}

/** Why the tool `name` cannot be run here, or null (throws under CI). */
export function missingTool(name: string, path: string | undefined): string | null {
  return missing(name, path !== undefined, 'npm run setup:test installs it');
}
