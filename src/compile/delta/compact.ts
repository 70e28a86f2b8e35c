import { Catalog } from '../../catalog/catalog.js';
import { compileCatalog, type CompileResult } from '../compile.js';
import { digestRawFiles } from '../raw-file.js';
import { DeltaCompileError } from './delta-changes.js';

export interface CompactOptions {
  /** The dist directory whose current snapshot is made of segments. */
  readonly outDir: string;
  /** The raw catalog the newest delta was compiled from. */
  readonly rawDir: string;
  readonly keep?: number;
  readonly memoryBytes?: number;
}

/**
 * `omm compact <dist> --raw <raw>` (docs/segments.md, "Compaction"): the segments folded into one
 * ordinary snapshot, published like any other. The raw catalog is the catalog's source of truth
 * and a segmented snapshot names its files (sizes, rows and SHA-256, as a full compile would):
 * when the raw files are exactly those, compaction is the full compile of them, byte for byte
 * what `omm compile` writes, by construction. Other raw files are refused (E_DELTA_INPUT): they
 * are not the catalog the segments answer for. Null when the snapshot has no segments.
 */
export async function compactSegments(options: CompactOptions): Promise<CompileResult | null> {
  const cat = Catalog.open(options.outDir, { searchable: false });
  let views: boolean;
  try {
    const manifest = cat.snapshot.manifest;
    if (!manifest.segments) return null;
    views = manifest.views !== undefined;
    const digests = await digestRawFiles(options.rawDir);
    const named = new Map(manifest.sources.map((s) => [s.file, s.sha256]));
    const differing = [...named.keys()].filter((file) => digests.get(file.slice(0, -'.csv'.length) as never)?.sha256 !== named.get(file));
    const extra = [...digests.keys()].filter((file) => !named.has(`${file}.csv`));
    if (differing.length > 0 || extra.length > 0) {
      throw new DeltaCompileError(
        'E_DELTA_INPUT',
        `${options.rawDir} is not the raw catalog snapshot ${manifest.buildId} answers for (${[...differing, ...extra.map((f) => `${f}.csv`)].join(', ')} differ${differing.length + extra.length === 1 ? 's' : ''}): compile it in full, or compact with the raw catalog of the newest delta`,
      );
    }
  } finally {
    cat.close();
  }
  return compileCatalog({ rawDir: options.rawDir, outDir: options.outDir, views, keep: options.keep, memoryBytes: options.memoryBytes });
}
