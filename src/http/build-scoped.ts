import { CompressedCache } from './compression.js';

/** The ETags of one snapshot under one server configuration, per encoding. */
export interface BuildTags {
  readonly identity: string;
  readonly br: string;
  readonly gzip: string;
}

/**
 * What depends on the snapshot in service: its ETags and the compressed bodies kept for it.
 * Responses are a function of the snapshot, the server's configuration and the URL, so an ETag
 * is the build id and a tag of the configuration; a swap starts both afresh.
 */
export class BuildScoped {
  private current = { buildId: '', tags: { identity: '', br: '', gzip: '' } as BuildTags, compressed: new CompressedCache() };

  constructor(private readonly configTag: string) {}

  private of(buildId: string) {
    if (buildId !== this.current.buildId) {
      const tag = `"${buildId}-${this.configTag}`;
      this.current = { buildId, tags: { identity: `${tag}"`, br: `${tag}-br"`, gzip: `${tag}-gzip"` }, compressed: new CompressedCache() };
    }
    return this.current;
  }

  tags(buildId: string): BuildTags {
    return this.of(buildId).tags;
  }

  compressed(buildId: string): CompressedCache {
    return this.of(buildId).compressed;
  }
}
