import { FixedSorter } from '../../sort/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import type { EdgeColumns } from '../validate/edge-files.js';
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
