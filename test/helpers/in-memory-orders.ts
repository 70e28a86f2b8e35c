/**
 * The compile's former in-memory orders (src/compile/orders.ts and derive.ts's entityOrders before
 * the out-of-core compile), kept as the oracle the out-of-core orders (src/compile/orders-build/)
 * are tested against: value for value the same arrays.
 */
import { nameSortKey } from '../../src/compile/sort-keys.js';

function pow2AtLeast(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** idRank[ordinal] = position of the ordinal's local id in local-id order. */
export function localIdRanks(ids: readonly string[]): Uint32Array {
  const decimal = /^(0|[1-9][0-9]{0,14})$/;
  const numeric: number[] = [];
  const numericOrdinal = new Map<number, number>();
  const text: string[] = [];
  const textOrdinal = new Map<string, number>();
  ids.forEach((id, ordinal) => {
    if (decimal.test(id)) {
      numeric.push(Number(id));
      numericOrdinal.set(Number(id), ordinal);
    } else {
      text.push(id);
      textOrdinal.set(id, ordinal);
    }
  });
  const ranks = new Uint32Array(ids.length);
  let rank = 0;
  for (const value of Float64Array.from(numeric).sort()) ranks[numericOrdinal.get(value)!] = rank++;
  for (const id of text.sort()) ranks[textOrdinal.get(id)!] = rank++;
  return ranks;
}

/** Inverse of a permutation. */
export function invert(order: Uint32Array): Uint32Array {
  const ranks = new Uint32Array(order.length);
  for (let k = 0; k < order.length; k++) ranks[order[k]] = k;
  return ranks;
}

/**
 * Ordinals sorted by a numeric key (NaN = missing, always last), ascending or descending,
 * ties by id rank.
 */
export function orderByNumber(keys: ArrayLike<number>, idRank: Uint32Array, descending: boolean): Uint32Array {
  const n = idRank.length;
  const present = new Float64Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) if (!Number.isNaN(keys[i])) present[m++] = keys[i];
  const distinct = uniqueSorted(present.subarray(0, m).sort());
  const dense = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (Number.isNaN(k)) dense[i] = distinct.length;
    else {
      const r = binarySearch(distinct, k);
      dense[i] = descending ? distinct.length - 1 - r : r;
    }
  }
  return orderByDense(dense, idRank);
}

/** Ordinals sorted by string keys (code-unit order), ties by id rank; and the dense key ranks. */
export function orderByString(keys: readonly string[], idRank: Uint32Array): { order: Uint32Array; dense: Float64Array } {
  const n = keys.length;
  const width = Math.max(1, n.toString(36).length);
  const composite: string[] = new Array(n);
  for (let i = 0; i < n; i++) composite[i] = `${keys[i]}\u0000${idRank[i].toString(36).padStart(width, '0')}`;
  composite.sort();
  const byRank = new Uint32Array(n);
  for (let i = 0; i < n; i++) byRank[idRank[i]] = i;
  const order = new Uint32Array(n);
  const dense = new Float64Array(n);
  let denseRank = -1;
  let previous: string | undefined;
  for (let k = 0; k < n; k++) {
    const entry = composite[k];
    const cut = entry.length - width - 1;
    const ordinal = byRank[parseInt(entry.slice(cut + 1), 36)];
    order[k] = ordinal;
    const key = entry.slice(0, cut);
    if (key !== previous) denseRank++;
    previous = key;
    dense[ordinal] = denseRank;
  }
  return { order, dense };
}

/** Ordinals sorted by a dense rank (0..n), ties by id rank. */
export function orderByDense(dense: ArrayLike<number>, idRank: Uint32Array): Uint32Array {
  const n = idRank.length;
  const shift = pow2AtLeast(n);
  const composite = new Float64Array(n);
  for (let i = 0; i < n; i++) composite[i] = dense[i] * shift + idRank[i];
  composite.sort();
  const byRank = new Uint32Array(n);
  for (let i = 0; i < n; i++) byRank[idRank[i]] = i;
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = byRank[composite[k] % shift];
  return order;
}

/** Descending by a dense rank, ties by id rank ascending. */
export function reverseDense(dense: Float64Array): Float64Array {
  let max = 0;
  for (let i = 0; i < dense.length; i++) if (dense[i] > max) max = dense[i];
  return dense.map((d) => max - d);
}

function uniqueSorted(sorted: Float64Array): Float64Array {
  if (sorted.length === 0) return sorted;
  let w = 1;
  for (let r = 1; r < sorted.length; r++) if (sorted[r] !== sorted[w - 1]) sorted[w++] = sorted[r];
  return sorted.subarray(0, w);
}

function binarySearch(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface InMemoryEntity {
  readonly ids: readonly string[];
  readonly names: readonly string[];
  readonly dateAdded: ArrayLike<number>;
  readonly popularity: ArrayLike<number>;
  readonly releaseDate?: ArrayLike<number>;
}

export interface InMemoryOrders {
  readonly idRank: Uint32Array;
  readonly orders: Map<string, Uint32Array>;
  readonly ranks: Map<string, Uint32Array>;
}

/** Every order of one entity type, as the in-memory compile computed them. */
export function inMemoryEntityOrders(e: InMemoryEntity): InMemoryOrders {
  const idRank = localIdRanks(e.ids);
  const orders = new Map<string, Uint32Array>();
  const byName = orderByString(e.names.map(nameSortKey), idRank);
  orders.set('name', byName.order);
  orders.set('-name', orderByDense(reverseDense(byName.dense), idRank));
  orders.set('dateAdded', orderByNumber(e.dateAdded, idRank, false));
  orders.set('-dateAdded', orderByNumber(e.dateAdded, idRank, true));
  if (e.releaseDate) {
    orders.set('releaseDate', orderByNumber(e.releaseDate, idRank, false));
    orders.set('-releaseDate', orderByNumber(e.releaseDate, idRank, true));
  }
  orders.set('popularity', orderByNumber(e.popularity, idRank, true));
  const ranks = new Map<string, Uint32Array>();
  for (const [name, order] of orders) ranks.set(name, invert(order));
  return { idRank, orders, ranks };
}
