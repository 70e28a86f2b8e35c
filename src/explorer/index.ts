export { Explorer, explorerSite, type ExplorerOptions } from './explorer.js';
export { PAGE_HEADERS, HTML_TYPE } from './headers.js';
