import type { Image, MainRelease } from './model.js';

/**
 * The front cover's file: the first FrontCoverImage the release names (listed, grouped or
 * linked); when the release names no image at all, the message's only FrontCoverImage.
 */
export function coverFile(release: MainRelease, images: ReadonlyMap<string, Image>): string | undefined {
  let namesAnImage = false;
  for (const ref of release.resources) {
    const image = images.get(ref);
    if (!image) continue;
    namesAnImage = true;
    if (image.frontCover && image.file !== undefined) return image.file;
  }
  if (namesAnImage) return undefined;
  const covers = [...images.values()].filter((i) => i.frontCover && i.file !== undefined);
  return covers.length === 1 ? covers[0].file : undefined;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * An artwork URL for the catalog: an absolute http(s) URL as is; a relative file name resolved
 * against `baseUrl` when given (a leading slash does not climb out of the base); otherwise, and
 * for other schemes (ftp:, s3:, file:), none.
 */
export function artworkUrl(file: string | undefined, baseUrl: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  if (SCHEME.test(file)) {
    if (!/^https?:\/\//i.test(file)) return undefined;
    try {
      new URL(file);
      return /\s/.test(file) ? new URL(file).href : file;
    } catch {
      return undefined;
    }
  }
  if (baseUrl === undefined) return undefined;
  try {
    const url = new URL(file.replace(/^\/+/, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
