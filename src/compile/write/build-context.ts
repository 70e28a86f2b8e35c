import type { Packr } from 'msgpackr';
import type { ListColumn, StringColumn } from '../spill/columns.js';
import type { AdjacencyArrays } from '../relations/adjacency-files.js';
import type { EntityOrders } from '../relations/derived-relations.js';
import type { SongInheritance } from '../relations/song-inheritance.js';
import type { StationPlan } from '../relations/station-plan.js';
import type { IssueLog } from '../raw-file.js';
import type { EntityColumns } from '../validate/entity-files.js';

/** The compile's settings, the same for every phase: where it reads and writes, its build id, its packer, its issue log. */
export interface BuildSettings {
  readonly rawDir: string;
  readonly outDir: string;
  readonly buildId: string;
  readonly packr: Packr;
  readonly log: IssueLog;
  readonly onRow?: () => void;
}

/** Everything the writers read, mapped from the spill directory: no per-song JS state. */
export interface BuildContext extends BuildSettings {
  readonly songs: EntityColumns;
  readonly albums: EntityColumns;
  readonly artists: EntityColumns;
  readonly playlists: EntityColumns;
  readonly customStations: EntityColumns;
  readonly genres: readonly string[];
  readonly inherit: SongInheritance;
  /** By song: the accepted album_tracks row of the primary album, NONE without. */
  readonly primaryTrack: Uint32Array;
  /** By accepted album_tracks row. */
  readonly trackDisc: Uint32Array;
  readonly trackNumber: Uint32Array;
  /** By lyrics ordinal. */
  readonly lyricsLanguages: StringColumn;
  readonly artistGenres: ListColumn;
  readonly relations: ReadonlyMap<string, AdjacencyArrays>;
  readonly stations: StationPlan;
  readonly orders: { readonly songs: EntityOrders; readonly albums: EntityOrders; readonly artists: EntityOrders; readonly playlists: EntityOrders };
}
