/**
 * Whether an Accept header asks for HTML before JSON: text/html must be acceptable (q > 0) and
 * preferred strictly over application/json, each weighed by the most specific range that names
 * it (`text/html` over `text/*` over the wildcard range). No header, the wildcard (curl's
 * default), `application/json` or a tie answer false: an API client keeps getting JSON unless
 * it asks for HTML by name.
 */
export function prefersHtml(accept: string | undefined): boolean {
  const value = accept?.toLowerCase();
  if (value === undefined || !value.includes('text/')) return false;
  const html = { q: 0, specificity: -1 };
  const json = { q: 0, specificity: -1 };
  for (const part of value.split(',')) {
    const [rangeRaw, ...params] = part.split(';');
    const range = rangeRaw.trim();
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) continue;
    weigh(html, range, 'text', 'html', q);
    weigh(json, range, 'application', 'json', q);
  }
  return html.q > 0 && html.q > json.q;
}

/** Keeps the q of the most specific range that covers type/subtype. */
function weigh(best: { q: number; specificity: number }, range: string, type: string, subtype: string, q: number): void {
  const specificity = range === `${type}/${subtype}` ? 2 : range === `${type}/*` ? 1 : range === '*/*' ? 0 : -1;
  if (specificity > best.specificity) {
    best.specificity = specificity;
    best.q = q;
  }
}
