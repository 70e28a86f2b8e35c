import { FixedSorter } from '../../sort/fixed-sort.js';
import { SpillDir } from '../spill/spill-dir.js';
import { openEdges, type EdgeColumns, type EdgeFiles } from '../validate/edge-files.js';
import { runWorkerJob } from '../worker-job.js';
import { AdjacencyWriter, type AdjacencyFiles } from './adjacency-files.js';

const TWO_32 = 2 ** 32;

/** Groups edges by owner, each owner's targets by explicit position (missing last), then row order. */
export function groupByPosition(spill: SpillDir, name: string, sources: number, edges: EdgeColumns, budgetBytes: number): AdjacencyFiles {
  const sorter = new FixedSorter(spill.path, spill.name(name), 4, 4, budgetBytes);
  for (let i = 0; i < edges.count; i++) {
    const p = edges.positions[i];
    if (Number.isNaN(p)) sorter.add(edges.owners[i], 0xffffffff, 0xffffffff, i);
    else sorter.add(edges.owners[i], Math.floor(p / TWO_32), p >>> 0, i);
  }
  const out = new AdjacencyWriter(spill, name, sources);
  sorter.drain((words, at) => out.add(words[at], edges.targets[words[at + 3]]));
  return out.finish();
}

/** Groups edges by owner in row order. */
export function groupInRowOrder(spill: SpillDir, name: string, sources: number, edges: EdgeColumns, budgetBytes: number): AdjacencyFiles {
  const sorter = new FixedSorter(spill.path, spill.name(name), 2, 2, budgetBytes);
  for (let i = 0; i < edges.count; i++) sorter.add(edges.owners[i], i);
  const out = new AdjacencyWriter(spill, name, sources);
  sorter.drain((words, at) => out.add(words[at], edges.targets[words[at + 1]]));
  return out.finish();
}

/**
 * Groups (owner, target) pairs by owner, each owner's targets by `rank[target]` (a permutation's
 * ranks, so no two tie): `order[rank]` gives the target back without storing it.
 */
export function groupByTargetRank(
  spill: SpillDir,
  name: string,
  sources: number,
  pairs: (emit: (owner: number, target: number) => void) => void,
  rank: Uint32Array,
  order: Uint32Array,
  budgetBytes: number,
): AdjacencyFiles {
  const sorter = new FixedSorter(spill.path, spill.name(name), 2, 2, budgetBytes);
  pairs((owner, target) => sorter.add(owner, rank[target]));
  const out = new AdjacencyWriter(spill, name, sources);
  sorter.drain((words, at) => out.add(words[at], order[words[at + 1]]));
  return out.finish();
}

/** Files of edges to group by owner, as they cross to a worker (paths only). */
export interface GroupEdgesJob {
  /** The spill directory, and the prefix of the names the job gives its files there. */
  readonly spillPath: string;
  readonly spillPrefix: string;
  /** Arena bytes of the one sorter that runs at a time. */
  readonly budgetBytes: number;
  readonly groups: readonly { readonly name: string; readonly sources: number; readonly edges: EdgeFiles; readonly order: 'position' | 'rows' }[];
}

/** Groups each of the job's files (groupByPosition or groupInRowOrder), in order. */
export function groupEdges(job: GroupEdgesJob): AdjacencyFiles[] {
  const spill = SpillDir.attach(job.spillPath, job.spillPrefix);
  return job.groups.map((g) => (g.order === 'position' ? groupByPosition : groupInRowOrder)(spill, g.name, g.sources, openEdges(g.edges), job.budgetBytes));
}

/** groupEdges on a worker thread (group-edges-worker.ts). */
export function startGroupEdges(job: GroupEdgesJob): Promise<AdjacencyFiles[]> {
  return runWorkerJob('group edges', './group-edges-worker.js', import.meta.url, job, () => groupEdges(job));
}
