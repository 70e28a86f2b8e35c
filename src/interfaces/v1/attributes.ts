import type { ResourceType } from '../../catalog/catalog.js';

/**
 * The attributes of each type in interface 1, in the order they are rendered. `full` is the
 * non-catalog endpoints; `catalog` is /catalog and /catalog/{id}; `lookup` is /lookup and /match.
 */
export type AttributeSet = 'full' | 'catalog' | 'lookup';

export const ATTRIBUTES: Record<AttributeSet, Record<ResourceType, readonly string[]>> = {
  full: {
    song: ['name', 'files', 'albumName', 'artistName', 'isrc', 'artworkUrl', 'trackNumber', 'discNumber', 'genres', 'releaseDate', 'durationMs', 'lyrics'],
    album: ['name', 'trackCount', 'artistName', 'artworkUrl', 'upc', 'genres', 'releaseDate'],
    artist: ['name', 'artworkUrl'],
    playlist: ['name', 'trackCount', 'curatorName', 'artworkUrl', 'description'],
    station: ['name', 'seed', 'description'],
  },
  catalog: {
    song: ['name', 'albumName', 'artistNames', 'isrc', 'artworkUrl', 'trackNumber', 'discNumber', 'genres', 'releaseDate', 'durationMs'],
    album: ['name', 'trackCount', 'artistNames', 'artworkUrl', 'upc', 'label', 'genres', 'releaseDate'],
    artist: ['name', 'artworkUrl', 'genres'],
    playlist: [],
    station: [],
  },
  lookup: {
    song: ['name', 'albumName', 'artistName', 'isrc', 'artworkUrl', 'trackNumber', 'discNumber', 'genres', 'releaseDate', 'durationMs'],
    album: ['name', 'trackCount', 'artistName', 'artworkUrl', 'upc', 'genres', 'releaseDate'],
    artist: ['name', 'artworkUrl'],
    playlist: [],
    station: [],
  },
};
