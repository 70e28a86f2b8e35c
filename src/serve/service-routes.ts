import type { Handler } from './context.js';
import { openApiDocument } from '../interfaces/openapi/document.js';
import type { Router } from './router.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../interfaces/service-info.js';

/** `/` (service info), `/healthz` (the process answers), `/openapi.json`. `/readyz` and `/metrics` belong to the server (they read its state). */
export function registerServiceRoutes(router: Router<Handler>, v1Prefix: string, openMusicPrefix = '/openmusic'): void {
  router.add('/', 'v1', ({ cat }) => ({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    snapshot: { buildId: cat.buildId, formatVersion: cat.snapshot.manifest.formatVersion },
    counts: cat.counts,
    links: { v1: `${v1Prefix}/`, openmusic: `${openMusicPrefix}/`, health: '/healthz', ready: '/readyz', metrics: '/metrics', openapi: '/openapi.json' },
  }));
  router.add('/healthz', 'v1', () => ({ status: 'ok' }));
  const document = openApiDocument(v1Prefix, openMusicPrefix);
  router.add('/openapi.json', 'v1', () => document);
}
