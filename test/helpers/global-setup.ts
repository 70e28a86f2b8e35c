import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every test's temporary directories live under one directory per run, removed when the run
 * ends: tests create them with os.tmpdir() (here and in the servers and compiles they spawn,
 * which inherit TMPDIR), and a run used to leave thousands behind in /tmp.
 */
export default function setup(): () => Promise<void> {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'omm-tests-'));
  process.env.TMPDIR = root;
  return async () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // Asynchronously: a synchronous removal blocks the runner while it ends its workers.
    await rm(root, { recursive: true, force: true });
  };
}
