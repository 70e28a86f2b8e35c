import type { EdgeList } from './catalog-index.js';

export interface AdjacencyArrays {
  readonly offsets: Uint32Array;
  readonly targets: Uint32Array;
}

/**
 * Groups edges by owner (a stable counting sort, so row order is kept) and orders each owner's
 * edges with `compare` (edge indices in, row order as the last tie-break).
 */
export function groupEdges(
  sourceCount: number,
  owners: ArrayLike<number>,
  targets: ArrayLike<number>,
  compare?: (edgeA: number, edgeB: number) => number,
): AdjacencyArrays {
  const offsets = new Uint32Array(sourceCount + 1);
  for (let e = 0; e < owners.length; e++) offsets[owners[e] + 1]++;
  for (let s = 0; s < sourceCount; s++) offsets[s + 1] += offsets[s];
  const fill = offsets.slice(0, sourceCount);
  const edges = new Uint32Array(owners.length);
  for (let e = 0; e < owners.length; e++) edges[fill[owners[e]]++] = e;
  if (compare) {
    const byRow = (a: number, b: number) => compare(a, b) || a - b;
    for (let s = 0; s < sourceCount; s++) {
      if (offsets[s + 1] - offsets[s] > 1) edges.subarray(offsets[s], offsets[s + 1]).sort(byRow);
    }
  }
  const out = new Uint32Array(edges.length);
  for (let i = 0; i < edges.length; i++) out[i] = targets[edges[i]];
  return { offsets, targets: out };
}

/** Edges ordered by their explicit position, then row order. */
export function groupByPosition(sourceCount: number, edges: EdgeList): AdjacencyArrays {
  return groupEdges(sourceCount, edges.owners, edges.targets, (a, b) => edges.positions[a] - edges.positions[b]);
}

/** Each owner's targets ordered by a precomputed rank of the target. */
export function groupByTargetRank(sourceCount: number, owners: ArrayLike<number>, targets: ArrayLike<number>, rank: Uint32Array): AdjacencyArrays {
  return groupEdges(sourceCount, owners, targets, (a, b) => rank[targets[a]] - rank[targets[b]]);
}

/** Reverses an adjacency (target -> owners), each list ordered by rank of the owner. */
export function reverseAdjacency(adj: AdjacencyArrays, targetCount: number, ownerRank?: Uint32Array): AdjacencyArrays {
  const owners = new Uint32Array(adj.targets.length);
  for (let s = 0; s + 1 < adj.offsets.length; s++) owners.fill(s, adj.offsets[s], adj.offsets[s + 1]);
  return ownerRank
    ? groupByTargetRank(targetCount, adj.targets, owners, ownerRank)
    : groupEdges(targetCount, adj.targets, owners);
}
