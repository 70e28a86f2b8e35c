import type { Command } from 'commander';
import { DEFAULT_BRANDING } from '../serve/openmusic/routes.js';
import { startServer, type RunningServer } from '../serve/server.js';
import { CliError } from './cli-error.js';

export interface ServeFlags {
  port: number;
  host: string;
  log: boolean;
  brandName: string;
  brandEmail: string;
  brandHomepage?: string;
}

export function addServeOptions(command: Command): Command {
  return command
    .option('-p, --port <port>', 'TCP port (env OMM_PORT)', (v) => Number.parseInt(v, 10), Number(process.env.OMM_PORT ?? 8080))
    .option('--host <host>', 'address to listen on (env OMM_HOST)', process.env.OMM_HOST ?? '127.0.0.1')
    .option('--log', 'write one JSON line per request to stdout (env OMM_LOG=1)', process.env.OMM_LOG === '1')
    .option('--brand-name <name>', 'service name in the OpenMusic info at /openmusic/ (env OMM_BRAND_NAME)', process.env.OMM_BRAND_NAME ?? DEFAULT_BRANDING.name)
    .option('--brand-email <email>', 'contact address in the OpenMusic info (env OMM_BRAND_EMAIL)', process.env.OMM_BRAND_EMAIL ?? DEFAULT_BRANDING.email)
    .option('--brand-homepage <url>', 'homepage in the OpenMusic info (env OMM_BRAND_HOMEPAGE)', process.env.OMM_BRAND_HOMEPAGE);
}

/** Starts the server, prints where, and closes it cleanly on SIGINT/SIGTERM. */
export async function serveSnapshot(snapshot: string, flags: ServeFlags): Promise<RunningServer> {
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535) throw new CliError(`--port must be 0..65535, got ${flags.port}`);
  const branding = { ...DEFAULT_BRANDING, name: flags.brandName, email: flags.brandEmail, homepage: flags.brandHomepage ?? null };
  const running = await startServer({ snapshot, port: flags.port, host: flags.host, log: flags.log ? process.stdout : null, branding });
  const c = running.catalog.counts;
  process.stderr.write(`omm: serving snapshot ${running.catalog.buildId} (${c.songs} songs, ${c.albums} albums, ${c.artists} artists) on ${running.url}/v1/ and ${running.url}/openmusic/\n`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return running;
}

export function register(program: Command): void {
  addServeOptions(
    program
      .command('serve')
      .description('serve a snapshot over HTTP: interface 1 under /v1, interface 2 (OpenMusic) under /openmusic')
      .argument('<snapshot>', 'a snapshot directory, or a dist directory (serves its current snapshot)'),
  ).action(async (snapshot: string, flags: ServeFlags) => {
    await serveSnapshot(snapshot, flags);
  });
}
