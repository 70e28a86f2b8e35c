export { buildSearchIndex } from './build-search-index.js';
export type { SearchDocumentFiles } from './inputs.js';
