/**
 * Genres by name: an id per distinct name (NFKC, lower case), the display name being the first
 * spelling seen. The vocabulary of genres is small, so it lives in memory.
 */
export class GenreNames {
  private readonly byKey = new Map<string, number>();
  readonly names: string[] = [];

  /** `known` first, numbered in that order (a delta compile numbers genres as the catalog in service does). */
  constructor(known: readonly string[] = []) {
    this.idsOf(known);
  }

  idsOf(names: readonly string[] | undefined): number[] | undefined {
    if (!names || names.length === 0) return undefined;
    const ids: number[] = [];
    for (const name of names) {
      const key = name.normalize('NFKC').toLowerCase();
      let id = this.byKey.get(key);
      if (id === undefined) {
        id = this.names.length;
        this.byKey.set(key, id);
        this.names.push(name);
      }
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }
}
