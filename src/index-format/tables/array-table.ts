import { SHARD_KINDS } from '../constants.js';
import { FormatError } from '../errors.js';
import type { Shard } from '../shards/shard-reader.js';
import { ShardWriter, type WrittenShard } from '../shards/shard-writer.js';
import { u32Bytes } from '../u32.js';

/**
 * Named u32 arrays in one shard: precomputed orders, ranks, and adjacency lists. An adjacency
 * list `rel` is two arrays, `rel.offsets` (n+1 entries) and `rel.targets`: the targets of source
 * i are targets[offsets[i] .. offsets[i+1]).
 */
export class ArrayTableWriter {
  private readonly arrays: [string, Uint32Array][] = [];

  array(name: string, values: Uint32Array): this {
    this.arrays.push([name, values]);
    return this;
  }

  adjacency(name: string, offsets: Uint32Array, targets: Uint32Array): this {
    return this.array(`${name}.offsets`, offsets).array(`${name}.targets`, targets);
  }

  write(path: string, buildId: string, meta: Record<string, unknown> = {}): WrittenShard {
    const writer = new ShardWriter(path, SHARD_KINDS.arrays, buildId);
    const counts: Record<string, number> = {};
    for (const [name, values] of this.arrays) {
      writer.section(name, u32Bytes(values));
      counts[name] = values.length;
    }
    return writer.finish({ ...meta, arrays: counts });
  }
}

/**
 * A read-only u32 array inside a shard. Reads verify the pages they touch on first use. When the
 * shard is mapped (and the array aligned), one view over the whole array serves every read: an
 * entry is read without making an object, and a slice is a subarray of it.
 */
export class U32Column {
  private readonly whole: Uint32Array | null;

  constructor(
    private readonly shard: Shard,
    private readonly start: number,
    readonly length: number,
  ) {
    const mapping = shard.mapping;
    this.whole = mapping !== undefined && (mapping.byteOffset + start) % 4 === 0 ? new Uint32Array(mapping.buffer, mapping.byteOffset + start, length) : null;
  }

  get(i: number): number {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`index ${i} outside array of ${this.length}`);
    if (this.whole === null) return this.shard.u32(this.start + i * 4);
    this.shard.verify(this.start + i * 4, 4);
    return this.whole[i];
  }

  /** Entries [from, to) as a Uint32Array (zero-copy when mapped). */
  slice(from: number, to: number): Uint32Array {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    if (this.whole === null) return this.shard.u32Array(this.start + a * 4, b - a);
    if (b > a) this.shard.verify(this.start + a * 4, (b - a) * 4);
    return this.whole.subarray(a, b);
  }
}

export class ArrayTable {
  private readonly counts: Record<string, number>;

  constructor(readonly shard: Shard) {
    this.counts = (shard.meta.arrays ?? {}) as Record<string, number>;
  }

  has(name: string): boolean {
    return name in this.counts;
  }

  names(): string[] {
    return Object.keys(this.counts);
  }

  column(name: string): U32Column {
    const section = this.shard.section(name);
    const count = this.counts[name];
    if (count === undefined || section.length !== count * 4) {
      throw new FormatError('E_FORMAT_HEADER', `array ${name} does not hold ${count} entries`, this.shard.path);
    }
    return new U32Column(this.shard, section.start, count);
  }

  adjacency(name: string): Adjacency {
    return new Adjacency(this.column(`${name}.offsets`), this.column(`${name}.targets`), this.shard.path);
  }
}

/** Targets of each source, in stored order. */
export class Adjacency {
  constructor(
    private readonly offsets: U32Column,
    private readonly targets: U32Column,
    private readonly path: string,
  ) {}

  get sources(): number {
    return this.offsets.length - 1;
  }

  count(source: number): number {
    return this.offsets.get(source + 1) - this.offsets.get(source);
  }

  /** Targets of `source` from position `from` (inclusive) to `to` (exclusive). */
  targetsOf(source: number, from = 0, to = Number.MAX_SAFE_INTEGER): Uint32Array {
    if (source < 0 || source >= this.sources) throw new RangeError(`source ${source} outside adjacency of ${this.sources}`);
    const start = this.offsets.get(source);
    const end = this.offsets.get(source + 1);
    if (end < start || end > this.targets.length) {
      throw new FormatError('E_FORMAT_RECORD', `adjacency offsets of ${source} are inconsistent`, this.path);
    }
    const a = start + Math.max(0, from);
    const b = Math.min(end, start + Math.max(0, to));
    return a >= b ? new Uint32Array(0) : this.targets.slice(a, b);
  }
}
