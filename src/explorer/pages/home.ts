import { SERVICE_VERSION } from '../../interfaces/service-info.js';
import { code, facts } from '../facts.js';
import { bytes, count } from '../../units/readable.js';
import { html } from '../html.js';
import type { PageRender } from '../site.js';
import { snapshotInfo } from '../snapshot-info.js';

/** `counts` keys as words: `customStations` -> `custom stations`. */
const words = (key: string): string => key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/** `/` for a browser: the search (in the header), and the snapshot panel. */
export const homePage: PageRender = (ctx, site) => {
  const info = snapshotInfo(ctx.cat);
  const main = html`<h1>Catalog explorer</h1>
<p class="lede">Search the catalog as you type in the box above (arrow keys move through the results, Enter opens one), open a song, album, artist or playlist, or try the <a href="/match">match tester</a>. Every page reads the same snapshot and the same JSON the API serves.</p>
<section id="snapshot" class="panel" aria-labelledby="snapshot-h">
<h2 id="snapshot-h">Snapshot</h2>
${facts([
  ['Snapshot id', code(info.buildId)],
  [
    'Built',
    info.builtAt
      ? html`<time datetime="${info.builtAt.toISOString()}">${info.builtAt
          .toISOString()
          .replace('T', ' ')
          .replace(/\.\d+Z$/, ' UTC')}</time>`
      : null,
  ],
  ['Size', `${bytes(info.bytes)} in ${info.shards} shards`],
  ['Format version', info.formatVersion],
  ['Compiler', info.compiler],
  ['Server version', SERVICE_VERSION],
])}
<table class="counts">
<caption>Resources in the snapshot</caption>
<thead><tr><th scope="col">Type</th><th scope="col" class="num">Count</th></tr></thead>
<tbody>${Object.entries(info.counts).map(([key, n]) => html`<tr><th scope="row">${words(key)}</th><td class="num">${count(n)}</td></tr>`)}</tbody>
</table>
${
  info.sources.length > 0
    ? html`<details><summary>Raw sources (${info.sources.length} files)</summary><table class="sources"><caption class="visually-hidden">Raw files the snapshot was compiled from</caption><thead><tr><th scope="col">File</th><th scope="col" class="num">Rows</th><th scope="col" class="num">Size</th></tr></thead><tbody>${info.sources.map(
        (s) => html`<tr><th scope="row"><code>${s.file}</code></th><td class="num">${count(s.rows)}</td><td class="num">${bytes(s.bytes)}</td></tr>`,
      )}</tbody></table></details>`
    : ''
}
<p class="links">API: <a href="/openapi.json">OpenAPI document</a> · <a href="/metrics">Metrics</a> · <a href="${site.v1Prefix}/">interface 1 (${site.v1Prefix})</a> · <a href="${site.openMusicPrefix}/">interface 2 (${site.openMusicPrefix})</a> · <a href="/healthz">health</a></p>
</section>`;
  return { title: 'Catalog explorer', main };
};
