import { mapU32Column, NumberColumnWriter } from '../spill/columns.js';

/**
 * A descending order from an ascending one, with no second sort. An ascending order breaks ties
 * by id rank; the descending one (`-name`, `-dateAdded`) keeps that tie-break, so it is the
 * ascending order's groups of equal keys read back last group first, each group front to back.
 * Missing keys sort last in both directions: the groups from `tailStart` on stay where they are.
 *
 * `groupStartsPath` holds the position of each group's first ordinal, ascending, then the
 * order's length.
 */
export function writeGroupsReversed(orderPath: string, groupStartsPath: string, tailStart: number, outPath: string): void {
  const order = mapU32Column(orderPath);
  const starts = mapU32Column(groupStartsPath);
  const out = new NumberColumnWriter(outPath, 'u32');
  let g = starts.length - 1;
  while (g > 0 && starts[g - 1] >= tailStart) g--;
  // starts[g] is now the end of the last group before the tail.
  for (; g > 0; g--) {
    for (let k = starts[g - 1], end = starts[g]; k < end; k++) out.push(order[k]);
  }
  for (let k = tailStart; k < order.length; k++) out.push(order[k]);
  out.finish();
}
