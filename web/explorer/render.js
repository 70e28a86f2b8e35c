// The explorer's markup built from interface 1's JSON with DOM calls, so catalog data is only
// ever text, never markup. The server writes the same items (src/serve/explorer/items.ts).

/** An element with attributes (null ones left out) and children (strings become text). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  node.append(...children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== ''));
  return node;
}

/** The explorer's page of a resource. */
export const pageHref = (type, id) => `/${type}/${encodeURIComponent(id).replaceAll('%3A', ':')}`;

/** The catalog's artwork URL at a size, or null: only absolute http and https URLs are shown. */
export function artworkUrl(template, size) {
  if (typeof template !== 'string' || template.length === 0) return null;
  try {
    const url = new URL(template.replaceAll('{w}', String(size)).replaceAll('{h}', String(size)));
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Lazy-loaded artwork, decorative (the name is beside it), or an empty box. */
export function artwork(template, size, className) {
  const src = artworkUrl(template, size * 2);
  if (!src) return el('span', { class: `art ${className} none`, 'aria-hidden': 'true' });
  return el('img', { class: `art ${className}`, src, alt: '', loading: 'lazy', decoding: 'async', width: size, height: size });
}

/** The line under a name: who made it, or who curated it. */
export function byline(resource) {
  const a = resource.attributes ?? {};
  if (resource.type === 'playlist') return a.curatorName ?? (a.trackCount === undefined ? 'Playlist' : `${a.trackCount} songs`);
  if (resource.type === 'artist') return 'Artist';
  return a.artistName ?? '';
}

/** Artwork, name and byline: the inside of an item's link. */
export function itemContent(resource) {
  return [
    artwork(resource.attributes?.artworkUrl, 48, 'thumb'),
    el('span', { class: 'text' }, el('span', { class: 'name' }, resource.attributes?.name ?? resource.id), el('span', { class: 'by' }, byline(resource))),
  ];
}

export function itemList(resources) {
  return el(
    'ul',
    { class: 'items' },
    resources.map((r) => el('li', { class: 'item' }, el('a', { href: pageHref(r.type, r.id) }, itemContent(r)))),
  );
}

/** 199386 -> "3:19". */
export function duration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return null;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A description list; a value the catalog lacks says so. */
export function facts(rows) {
  return el(
    'dl',
    { class: 'facts' },
    rows.map(([label, value]) => [
      el('dt', {}, label),
      value === null || value === undefined || value === '' ? el('dd', { class: 'missing' }, 'none') : el('dd', {}, value),
    ]),
  );
}
