import { catalogIdOf, type Catalog, type CatalogType } from '../catalog.js';
import { put } from './render.js';

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
        relationships[rel] = { data: Array.from(this.cat.relation(adjacency).targetsOf(ordinal), (o) => this.bare(target, o)) };
      }
      out.relationships = relationships;
    }
    return out;
  }

  private bare(type: CatalogType, ordinal: number): Json {
    const keep = this.fields.get(type);
    const attributes: Json = {};
    const catalog = this.variant === 'catalog';
    if (type === 'song') {
      const r = this.cat.song(ordinal);
      put(attributes, keep, 'name', r.name);
      put(attributes, keep, 'albumName', r.albumName);
      if (catalog) put(attributes, keep, 'artistNames', r.artistNames);
      else put(attributes, keep, 'artistName', r.artistName);
      put(attributes, keep, 'isrc', r.isrc);
      put(attributes, keep, 'artworkUrl', r.artworkUrl);
      put(attributes, keep, 'trackNumber', r.trackNumber);
      put(attributes, keep, 'discNumber', r.discNumber);
      put(attributes, keep, 'genres', r.genres);
      put(attributes, keep, 'releaseDate', r.releaseDate);
      put(attributes, keep, 'durationMs', r.durationMs);
      return { id: catalogIdOf('song', r.ommId), type, attributes };
    }
    if (type === 'album') {
      const r = this.cat.album(ordinal);
      put(attributes, keep, 'name', r.name);
      put(attributes, keep, 'trackCount', r.trackCount);
      if (catalog) put(attributes, keep, 'artistNames', r.artistNames);
      else put(attributes, keep, 'artistName', r.artistName);
      put(attributes, keep, 'artworkUrl', r.artworkUrl);
      put(attributes, keep, 'upc', r.upc);
      if (catalog) put(attributes, keep, 'label', r.label);
      put(attributes, keep, 'genres', r.genres);
      put(attributes, keep, 'releaseDate', r.releaseDate);
      return { id: catalogIdOf('album', r.ommId), type, attributes };
    }
    const r = this.cat.artist(ordinal);
    put(attributes, keep, 'name', r.name);
    put(attributes, keep, 'artworkUrl', r.artworkUrl);
    if (catalog) put(attributes, keep, 'genres', r.genres);
    return { id: catalogIdOf('artist', r.ommId), type, attributes };
  }
}
