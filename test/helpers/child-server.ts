import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileCatalog } from '../../src/compile/index.js';
import { SMALL_CATALOG, writeRaw } from './raw-fixture.js';

const omm = fileURLToPath(new URL('../../bin/omm', import.meta.url));

export interface ChildServer {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the first stderr line matching `pattern` (after `from` characters). */
  waitFor(pattern: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  /** Resolves with the exit code. */
  exited(): Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

/** `omm serve <snapshot> --port <port> ...args` in a child process, resolved once it listens. */
export function startChildServer(snapshot: string, args: string[] = [], port = 0): Promise<ChildServer> {
  return startChildOmm(['serve', snapshot, '--port', String(port), ...args]);
}

export interface ChildOptions {
  /** Added to this process's environment. */
  readonly env?: Record<string, string>;
  /** The stderr line that says it listens, holding `on http://host:port/`. */
  readonly listening?: RegExp;
}

/** `omm <argv>` in a child process (a command that serves), resolved once it listens. */
export async function startChildOmm(argv: string[], options: ChildOptions = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, [omm, ...argv], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...options.env } });
  let err = '';
  const listeners = new Set<() => void>();
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    for (const l of listeners) l();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 15_000, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = err
          .slice(from)
          .split('\n')
          .find((l) => pattern.test(l));
        if (line !== undefined) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(line);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no stderr line matching ${pattern} within ${timeoutMs} ms; stderr so far:\n${err}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  const line = await waitFor(options.listening ?? /serving snapshot|workers-listening/);
  const url = /on (http:\/\/[^/\s]+)\//.exec(line)?.[1] ?? `http://127.0.0.1:${JSON.parse(line).port}`;
  return {
    child,
    url,
    stderr: () => err,
    waitFor,
    exited: () => exit,
    kill: (signal = 'SIGTERM') => void child.kill(signal),
  };
}

/** Compiles SMALL_CATALOG with song 100 renamed `name` into `dist` (a new build each name); its build id. */
export async function publishVariant(dist: string, name: string): Promise<string> {
  const rawDir = writeRaw({ ...SMALL_CATALOG, songs: SMALL_CATALOG.songs.replace('100,Song A,', `100,${name},`) });
  return (await compileCatalog({ rawDir, outDir: dist })).buildId;
}
