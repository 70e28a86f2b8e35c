import type { Handler } from './context.js';
import { openApiDocument } from './openapi/document.js';
import type { Router } from './router.js';

export const SERVICE_NAME = 'omm-catalog';
export const SERVICE_VERSION = '0.1.0';

/** `/` (service info), `/healthz` (the process answers), `/readyz` (a snapshot is in service), `/openapi.json`. */
export function registerServiceRoutes(router: Router<Handler>, v1Prefix: string, openMusicPrefix = '/openmusic'): void {
  router.add('/', 'v1', ({ cat }) => ({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    snapshot: { buildId: cat.buildId, formatVersion: cat.snapshot.manifest.formatVersion },
    counts: cat.counts,
    links: { v1: `${v1Prefix}/`, openmusic: `${openMusicPrefix}/`, health: '/healthz', ready: '/readyz', openapi: '/openapi.json' },
  }));
  router.add('/healthz', 'v1', () => ({ status: 'ok' }));
  router.add('/readyz', 'v1', ({ cat }) => ({ status: 'ready', buildId: cat.buildId }));
  const document = openApiDocument(v1Prefix, openMusicPrefix);
  router.add('/openapi.json', 'v1', () => document);
}
