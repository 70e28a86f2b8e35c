import type { Catalog } from '../../catalog/catalog.js';
import { catalogIdOf, type CatalogType } from '../../catalog/catalog-ids.js';
import { mapOrdinals } from '../../catalog/ordinal-slice.js';
import { putAttributes } from './render.js';

type Json = Record<string, unknown>;

/** Which relationships a catalog-id resource has, and where they live. */
const LINKS: Record<CatalogType, Record<string, [string, CatalogType]>> = {
  song: { albums: ['song.albums', 'album'], artists: ['song.artists', 'artist'] },
  album: { artists: ['album.artists', 'artist'] },
  artist: {},
};

export const LOOKUP_INCLUDES: Record<CatalogType, readonly string[]> = { song: ['albums', 'artists'], album: ['artists'], artist: [] };

/**
 * Resources of /catalog, /lookup and /match: the catalog id as `id`, their own attribute sets
 * (`artistNames` and `label` on /catalog, `artistName` on /lookup and /match), no files or
 * lyrics, and relationship objects with `data` only.
 */
export class CatalogRenderer {
  constructor(
    readonly cat: Catalog,
    readonly variant: 'catalog' | 'lookup',
    readonly fields: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
  ) {}

  /** /catalog: songs always carry albums and artists, albums their artists. */
  catalogResource(type: CatalogType, ordinal: number): Json {
    return this.resource(type, ordinal, Object.keys(LINKS[type]));
  }

  /** /lookup and /match: relationships only as included (one level, per type). */
  resource(type: CatalogType, ordinal: number, include: readonly string[] = []): Json {
    const out = this.bare(type, ordinal);
    const rels = include.filter((rel) => rel in LINKS[type]);
    if (rels.length > 0 || (this.variant === 'catalog' && type !== 'artist')) {
      const relationships: Json = {};
      for (const rel of rels) {
        const [adjacency, target] = LINKS[type][rel];
        const targets = this.cat.relation(adjacency).targetsOf(ordinal);
        relationships[rel] = { data: mapOrdinals(targets, targets.length, (o) => this.bare(target, o)) };
      }
      out.relationships = relationships;
    }
    return out;
  }

  private bare(type: CatalogType, ordinal: number): Json {
    const r = type === 'song' ? this.cat.song(ordinal) : type === 'album' ? this.cat.album(ordinal) : this.cat.artist(ordinal);
    return { id: catalogIdOf(type, r.ommId), type, attributes: putAttributes({}, this.fields.get(type), this.variant, type, r) };
  }
}
