import { Snapshot } from '../../index-format/snapshot.js';
import { compileCatalog, type CompileResult } from '../compile.js';
import { compileDelta, type DeltaCompileOptions, type DeltaCompileResult } from './compile-delta.js';

/**
 * How many deltas a snapshot may have before the next delivery folds them (docs/segments.md, "The
 * policy"): each extra segment costs a lookup one more owner check and a search one more index
 * to rank in; at 1M songs one delta already costs match and the first ask of a search (docs/
 * benchmarks.md, "Serving a base and deltas"). A catalog updated daily folds once a week.
 */
export const MAX_DELTAS = 7;

export type DeltaOutcome =
  | { readonly kind: 'delta'; readonly delta: DeltaCompileResult }
  | { readonly kind: 'folded'; readonly deltas: number; readonly full: CompileResult }
  | null;

/**
 * `omm compile --delta` with its policy: a delta over the snapshot in service while it has fewer
 * than `maxDeltas` deltas; past that, the raw catalog compiled in full (the deliveries since
 * included), which folds every segment into one snapshot, as `omm compact` would, so a catalog
 * updated every day serves as fast as a fresh one.
 */
export async function compileDeltaWithPolicy(options: DeltaCompileOptions & { readonly maxDeltas?: number }): Promise<DeltaOutcome> {
  const manifest = currentManifest(options.outDir);
  const deltas = manifest.segments ? manifest.segments.length - 1 : 0;
  if (deltas >= (options.maxDeltas ?? MAX_DELTAS)) {
    const views = manifest.views !== undefined;
    const full = await compileCatalog({ rawDir: options.rawDir, outDir: options.outDir, views, keep: options.keep, memoryBytes: options.memoryBytes });
    return { kind: 'folded', deltas, full };
  }
  const delta = await compileDelta(options);
  return delta ? { kind: 'delta', delta } : null;
}

function currentManifest(distDir: string) {
  const snapshot = Snapshot.open(distDir);
  try {
    return snapshot.manifest;
  } finally {
    snapshot.close();
  }
}
