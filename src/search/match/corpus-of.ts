import type { Catalog } from '../../catalog/catalog.js';
import { IndexCorpus } from './index-corpus.js';
import type { MatchCorpus } from './match-corpus.js';
import { SegmentedCorpus } from './segmented-corpus.js';

/** The corpus of a type: its search index, or its segments' (Catalog.searchParts). */
export function matchCorpus(cat: Catalog, type: 'song' | 'album' | 'artist'): MatchCorpus {
  const parts = cat.searchParts(type);
  return parts ? SegmentedCorpus.of(cat, type, parts) : new IndexCorpus(cat.search(type));
}
