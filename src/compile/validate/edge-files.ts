import { mapF64Column, mapU32Column, NumberColumnWriter } from '../spill/columns.js';
import type { SpillDir } from '../spill/spill-dir.js';

/**
 * The accepted rows of a file of references, in file order: owner and target ordinals and the
 * row's explicit position (NaN when it has none). Row order breaks ties.
 */
export interface EdgeFiles {
  readonly count: number;
  readonly owners: string;
  readonly targets: string;
  readonly positions: string;
}

export interface EdgeColumns {
  readonly count: number;
  readonly owners: Uint32Array;
  readonly targets: Uint32Array;
  readonly positions: Float64Array;
}

export function openEdges(files: EdgeFiles): EdgeColumns {
  return { count: files.count, owners: mapU32Column(files.owners), targets: mapU32Column(files.targets), positions: mapF64Column(files.positions) };
}

export class EdgeFilesWriter {
  private readonly owners: NumberColumnWriter;
  private readonly targets: NumberColumnWriter;
  private readonly positions: NumberColumnWriter;

  constructor(spill: SpillDir, name: string) {
    this.owners = new NumberColumnWriter(spill.file(`${name}.owners`), 'u32');
    this.targets = new NumberColumnWriter(spill.file(`${name}.targets`), 'u32');
    this.positions = new NumberColumnWriter(spill.file(`${name}.positions`), 'f64');
  }

  add(owner: number, target: number, position: number): void {
    this.owners.push(owner);
    this.targets.push(target);
    this.positions.push(position);
  }

  finish(): EdgeFiles {
    this.owners.finish();
    this.targets.finish();
    this.positions.finish();
    return { count: this.owners.length, owners: this.owners.path, targets: this.targets.path, positions: this.positions.path };
  }
}
