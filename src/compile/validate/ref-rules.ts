import type { MemoryBudget } from '../memory-budget.js';
import { mapF64Column, mapU32Column } from '../spill/columns.js';
import { FixedSorter } from '../../sort/fixed-sort.js';
import type { SpillDir } from '../spill/spill-dir.js';
import type { DeferredIssue, DeferredIssues } from './deferred-issues.js';
import { EdgeFilesWriter, type EdgeFiles } from './edge-files.js';
import type { ParsedCatalog } from './parse-raw.js';
import { NONE, refKey, type EntityName, type RefFile } from './raw-refs.js';
import type { ResolvedCatalog } from './resolve-ids.js';

/*
 * The rules every file of references is checked by (check-refs.ts applies them file by file): a
 * reference that names nothing rejects its row, a key that repeats an earlier accepted row's
 * rejects the later one, and the rows left become edge columns.
 */

const TARGET_FILE: Record<EntityName, string> = {
  artists: 'artists.csv',
  albums: 'albums.csv',
  songs: 'songs.csv',
  playlists: 'playlists.csv',
  stations: 'stations.csv',
};

export class RefRules {
  private readonly bytes: number;

  constructor(
    readonly parsed: ParsedCatalog,
    readonly resolved: ResolvedCatalog,
    readonly spill: SpillDir,
    budget: MemoryBudget,
    readonly deferred: DeferredIssues,
  ) {
    this.bytes = budget.sorterBytes(1);
  }

  /** The ordinal each row's `column` resolved to, NONE when it names nothing. */
  ordinalsOf(file: RefFile, column: string): Uint32Array {
    return mapU32Column(this.resolved.refs.get(refKey(file, column))!);
  }

  /** The raw line of each row. */
  linesOf(file: RefFile): Uint32Array {
    return mapU32Column(this.parsed.refs[file].lines);
  }

  positions(file: RefFile): Float64Array {
    return mapF64Column(this.parsed.refs[file].columns.position);
  }

  /** Rejects rows whose references name nothing; the rows left, as a bitmap of rejected rows. */
  dangling(file: RefFile, columns: [string, EntityName][]): Uint8Array {
    const rows = this.parsed.refs[file].rows;
    const lines = this.linesOf(file);
    const rejected = new Uint8Array(rows);
    const resolvedColumns = columns.map(([column, entity]) => ({ column, entity, ordinals: this.ordinalsOf(file, column) }));
    for (let r = 0; r < rows; r++) {
      for (const { column, entity, ordinals } of resolvedColumns) {
        if (ordinals[r] !== NONE) continue;
        rejected[r] = 1;
        this.deferred.add(file, lines[r], {
          code: 'E_RAW_REF',
          column,
          message: (row) => `${JSON.stringify(row[column])} is not an id in ${TARGET_FILE[entity]} (or its row was rejected)`,
        });
        break;
      }
    }
    return rejected;
  }

  /** Rejects rows (not yet rejected) whose key repeats an earlier such row's. */
  repeats(
    file: RefFile,
    rejected: Uint8Array,
    key: (r: number, out: Uint32Array) => boolean,
    issue: (r: number, first: number) => DeferredIssue,
    same?: (r: number, first: number) => boolean,
  ): void {
    // Rows go in in order and the sort is stable: sorted on the key alone, each key's rows stay in row order.
    const sorter = new FixedSorter(this.spill.path, this.spill.name(`repeats-${file}`), 3, 2, this.bytes);
    const k = new Uint32Array(2);
    for (let r = 0; r < rejected.length; r++) if (!rejected[r] && key(r, k)) sorter.add(k[0], k[1], r);
    const lines = this.linesOf(file);
    let p0 = -1;
    let p1 = -1;
    let first = -1;
    const found: [number, number][] = [];
    sorter.drain((words, at) => {
      const r = words[at + 2];
      if (words[at] === p0 && words[at + 1] === p1 && (!same || same(r, first))) {
        found.push([r, first]);
        return;
      }
      p0 = words[at];
      p1 = words[at + 1];
      first = r;
    });
    for (const [r, firstRow] of found) {
      rejected[r] = 1;
      this.deferred.add(file, lines[r], issue(r, firstRow));
    }
  }

  /** The accepted rows as edges `owner` -> `target` at `position`. */
  edges(file: RefFile, name: string, owner: string, target: string, rejected: Uint8Array, position: (r: number) => number): EdgeFiles {
    const owners = this.ordinalsOf(file, owner);
    const targets = this.ordinalsOf(file, target);
    const out = new EdgeFilesWriter(this.spill, name);
    for (let r = 0; r < rejected.length; r++) if (!rejected[r]) out.add(owners[r], targets[r], position(r));
    return out.finish();
  }
}
