export { publishBuild, type PublishOptions, type PublishProgress, type PublishSummary } from './publish-build.js';
export { pruneStore, type PruneOptions, type PruneSummary } from './prune-store.js';
export { readPointer, swapPointer, type PointerRead, type PointerSwap } from './pointer-swap.js';
