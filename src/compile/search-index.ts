import FlexSearch from 'flexsearch';
import { pack } from 'msgpackr';
import { searchText, SEARCH_INDEX_OPTIONS } from '../index-format/search-text.js';

/**
 * One FlexSearch index per searchable type, keyed by ordinal. Exported at compile time into a
 * blob shard; the server imports it instead of re-indexing.
 */
export class SearchIndexBuilder {
  private readonly index: InstanceType<typeof FlexSearch.Index>;
  count = 0;

  constructor(readonly type: string) {
    this.index = new FlexSearch.Index({
      tokenize: SEARCH_INDEX_OPTIONS.tokenize,
      resolution: SEARCH_INDEX_OPTIONS.resolution,
      encoder: SEARCH_INDEX_OPTIONS.encoder,
    });
  }

  add(ordinal: number, text: string): void {
    const normal = searchText(text);
    if (normal.length > 0) {
      this.index.add(ordinal, normal);
      this.count++;
    }
  }

  /** The export as msgpack: an array of [key, data] pairs in export order. */
  async exportBytes(): Promise<Buffer> {
    const chunks: [string, string][] = [];
    await this.index.export((key: string, data: string) => {
      chunks.push([String(key), data]);
    });
    return pack(chunks);
  }
}
