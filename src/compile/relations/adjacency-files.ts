import { mapU32Column, NumberColumnWriter } from '../spill/columns.js';
import type { SpillDir } from '../spill/spill-dir.js';

/** An adjacency as two u32 column files: `offsets` (sources + 1) and `targets`. */
export interface AdjacencyFiles {
  readonly sources: number;
  readonly offsets: string;
  readonly targets: string;
}

/** An adjacency over its mapped files: the targets of source i are targets[offsets[i] .. offsets[i + 1]). */
export interface AdjacencyArrays {
  readonly offsets: Uint32Array;
  readonly targets: Uint32Array;
}

export function openAdjacency(files: AdjacencyFiles): AdjacencyArrays {
  return { offsets: mapU32Column(files.offsets), targets: mapU32Column(files.targets) };
}

export function targetsOf(adj: AdjacencyArrays, source: number): Uint32Array {
  return adj.targets.subarray(adj.offsets[source], adj.offsets[source + 1]);
}

/** Writes an adjacency front to back: targets in source order (sources may be skipped, never revisited). */
export class AdjacencyWriter {
  private readonly offsets: NumberColumnWriter;
  private readonly targets: NumberColumnWriter;
  /** Sources whose offset is written. */
  private source = 0;

  constructor(
    spill: SpillDir,
    name: string,
    readonly sources: number,
  ) {
    this.offsets = new NumberColumnWriter(spill.file(`${name}.offsets`), 'u32');
    this.targets = new NumberColumnWriter(spill.file(`${name}.targets`), 'u32');
    this.offsets.push(0);
  }

  /** Appends a target of `source` (>= every source given before). */
  add(source: number, target: number): void {
    this.closeUpTo(source);
    this.targets.push(target);
  }

  /** Appends every target of `source`. */
  addAll(source: number, targets: ArrayLike<number>): void {
    this.closeUpTo(source);
    for (let i = 0; i < targets.length; i++) this.targets.push(targets[i]);
  }

  private closeUpTo(source: number): void {
    if (source < this.source || source >= this.sources) throw new Error(`adjacency: source ${source} out of order (at ${this.source} of ${this.sources})`);
    while (this.source < source) {
      this.offsets.push(this.targets.length);
      this.source++;
    }
  }

  finish(): AdjacencyFiles {
    while (this.source < this.sources) {
      this.offsets.push(this.targets.length);
      this.source++;
    }
    this.offsets.finish();
    this.targets.finish();
    return { sources: this.sources, offsets: this.offsets.path, targets: this.targets.path };
  }
}
