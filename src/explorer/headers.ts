/** The content type of every page. */
export const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * The pages' Content-Security-Policy: scripts, styles, fetches and forms only from this server,
 * no inline script or style, nothing framed; images from here and from the catalog's artwork
 * URLs, which may be on any http or https host (the pages only ever show http or https ones).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: http:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every page, error pages included. No referrer goes to the artwork's hosts. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** Headers of every asset. */
export const ASSET_HEADERS: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff' };

/** Assets live at a URL named by their content hash: a changed file is a new URL, so no cache ever has to let go. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
