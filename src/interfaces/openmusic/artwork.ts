/**
 * The size interface 2 asks artwork templates for. Interface 2 types `artwork_url` as a URI
 * (`format: uri`), so the catalog's templates (`.../{w}x{h}.jpg`, which interface 1 passes on as
 * they are) are expanded to this width and height; a client wanting another size asks interface 1.
 */
export const ARTWORK_SIZE = 600;

const PLACEHOLDER = /\{[wh]\}/g;
/** A character a URI may not hold as it is, or a `%` that starts no escape. */
const NOT_IN_URI = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]|%(?![0-9A-Fa-f]{2})/u;
const NOT_IN_URI_ALL = new RegExp(NOT_IN_URI.source, 'gu');

/** A catalog artwork URL as interface 2 writes it: `{w}` and `{h}` expanded, anything a URI cannot hold percent-encoded. */
export function artworkUri(url: string | null): string | null {
  if (url === null) return null;
  const sized = url.includes('{') ? url.replace(PLACEHOLDER, String(ARTWORK_SIZE)) : url;
  return NOT_IN_URI.test(sized) ? sized.replace(NOT_IN_URI_ALL, (c) => encodeURIComponent(c)) : sized;
}
