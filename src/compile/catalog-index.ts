/**
 * What the first pass keeps in memory: per entity, only the columns that indexes, orders and
 * relationships need (ids, sort keys, dates, popularity, genre ids), as arrays indexed by
 * ordinal. Text that is only displayed (titles aside, URLs, descriptions, lyrics, files) stays
 * in the CSV files and is read again, row by row, when records are written.
 */

/** Ordinal = position among a file's accepted rows, in file order. */
export class EntityColumns {
  readonly ids: string[] = [];
  readonly byId = new Map<string, number>();
  readonly lines: number[] = [];
  readonly names: string[] = [];
  readonly ommIds: string[] = [];
  readonly popularity: number[] = [];
  /** Epoch ms; NaN when missing. */
  readonly dateAdded: number[] = [];
  /** YYYYMMDD; NaN when missing. */
  readonly releaseDate: number[] = [];
  readonly releaseDateText: (string | undefined)[] = [];
  readonly genres: (number[] | undefined)[] = [];
  readonly artworkUrl: (string | undefined)[] = [];

  get count(): number {
    return this.ids.length;
  }
}

/** A list of (owner, target) edges with an explicit position and the row order as tie-break. */
export class EdgeList {
  readonly owners: number[] = [];
  readonly targets: number[] = [];
  readonly positions: number[] = [];

  add(owner: number, target: number, position: number): void {
    this.owners.push(owner);
    this.targets.push(target);
    this.positions.push(position);
  }

  get count(): number {
    return this.owners.length;
  }
}

export interface ExploreGroupRow {
  readonly id: string;
  readonly title: string;
  readonly type: 'song' | 'album' | 'artist' | 'playlist' | 'station';
  readonly position: number;
  readonly line: number;
  readonly items: { ordinal: number; position: number }[];
}

export interface CustomStationRow {
  readonly id: string;
}

export class CatalogIndex {
  readonly artists = new EntityColumns();
  readonly albums = new EntityColumns();
  readonly songs = new EntityColumns();
  readonly playlists = new EntityColumns();
  readonly stations = new EntityColumns();

  readonly albumUpc: (string | undefined)[] = [];
  readonly songIsrc: (string | undefined)[] = [];
  readonly songDuration: number[] = [];

  readonly albumCredits = new EdgeList();
  readonly songCredits = new EdgeList();
  /** album -> song, position = disc * 100000 + track. */
  readonly albumTracks = new EdgeList();
  readonly albumTrackDisc: number[] = [];
  readonly albumTrackNumber: number[] = [];
  /** First album_tracks row of each song: index into albumTracks, -1 when none. */
  readonly songPrimaryTrackRow: number[] = [];

  /** song -> file row ordinal; position 0 for the preferred file, 1 otherwise. */
  readonly songFiles = new EdgeList();
  /** song -> lyrics row ordinal. */
  readonly songLyrics = new EdgeList();
  readonly lyricsLanguages: string[] = [];

  readonly playlistTracks = new EdgeList();
  readonly customStationTracks = new EdgeList();
  readonly exploreGroups: ExploreGroupRow[] = [];

  /** Genre ordinal by lower-cased name; display name is the first spelling seen. */
  readonly genreByKey = new Map<string, number>();
  readonly genreNames: string[] = [];

  genreIds(names: readonly string[] | undefined): number[] | undefined {
    if (!names || names.length === 0) return undefined;
    const ids: number[] = [];
    for (const name of names) {
      const key = name.normalize('NFKC').toLowerCase();
      let id = this.genreByKey.get(key);
      if (id === undefined) {
        id = this.genreNames.length;
        this.genreByKey.set(key, id);
        this.genreNames.push(name);
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }
}
