import type { Encoding } from '../http/compression.js';

/** The content type of every JSON response. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** A handler result sent as it is, not as JSON: the metrics text, the draining /readyz. */
export class TextBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly status = 200,
  ) {}
}

/**
 * A 200 that brings its own validator instead of the snapshot's: the explorer's pages (tagged by
 * the build and the explorer's assets) and assets (tagged by their bytes). `etag` is the strong
 * tag of the identity body; a compressed body goes out under it with `-br` or `-gzip` added.
 */
export class TaggedBody extends TextBody {
  constructor(
    text: string,
    contentType: string,
    readonly etag: string,
    readonly cacheControl: string,
    /** More response headers: the explorer's Content-Security-Policy and its kin. */
    readonly headers: Readonly<Record<string, string>>,
    /** Bodies compressed once, ahead of time (assets); others are compressed as they go out. */
    readonly encoded: Readonly<Partial<Record<Encoding, Buffer>>> | null = null,
  ) {
    super(text, contentType);
  }

  /** The tag of the body sent in `encoding` (null: identity). */
  tagFor(encoding: Encoding | null): string {
    return encoding ? `${this.etag.slice(0, -1)}-${encoding}"` : this.etag;
  }
}
