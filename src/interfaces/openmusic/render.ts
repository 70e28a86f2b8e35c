import { RELATIONS, type Catalog } from '../../catalog/catalog.js';
import type { FileRecord, LyricsRecord, StationRecord } from '../../catalog/records.js';
import type { StationView } from '../../catalog/stations.js';
import { lyricsFor } from '../../catalog/lyrics.js';
import { mapOrdinals } from '../../catalog/ordinal-slice.js';
import { DEFAULT_RELATION_SORT, relationKey, sortByRank } from '../../catalog/relation-order.js';
import { RawJson, withRelationships } from '../json-chunks.js';
import { artworkUri } from './artwork.js';
import type { ViewType } from '../../catalog/views.js';
import { INCLUDED_DEFAULT, OM_RELATIONS, OUR_RELATION, OUR_TYPE, type OmRelation, type OmRenderSpec, type OmType } from './spec.js';

type Json = Record<string, unknown>;

/**
 * Renders interface-2 resources: `type` plural, `meta.omm_id` (bare 16 characters; playlists
 * and stations have no meta), `instance` for songs, `attributes` in snake_case with every key
 * present (null when unknown, `genres` always an array), relationships as plain arrays one
 * level deep, `lyrics` as `{text, language}`. A minimal view drops `attributes`.
 */
export class OmRenderer {
  constructor(
    readonly cat: Catalog,
    readonly spec: OmRenderSpec,
  ) {}

  resource(type: OmType, ordinal: number, include: ReadonlySet<OmRelation> = this.spec.include): Json | RawJson {
    switch (type) {
      case 'songs':
        return this.song(ordinal, include);
      case 'albums':
        return this.album(ordinal, include);
      case 'artists':
        return this.artist(ordinal, include);
      case 'playlists':
        return this.playlist(ordinal, include);
      case 'stations':
        throw new Error('stations render from a StationView');
    }
  }

  list(type: OmType, ordinals: ArrayLike<number>, include: ReadonlySet<OmRelation> = this.spec.include): (Json | RawJson)[] {
    if (ordinals.length > 1 && type !== 'stations' && this.usesViews(type)) this.cat.views!.touch('om', OUR_TYPE[type] as ViewType, ordinals);
    return mapOrdinals(ordinals, ordinals.length, (o) => this.resource(type, o, include));
  }

  /**
   * The stored default view of a resource, when this request shows that type in full and the
   * snapshot has views; otherwise null.
   */
  /** Whether this request renders `type` from stored views: not minimal, and the snapshot has them. */
  private usesViews(type: OmType): boolean {
    return this.cat.views !== null && !this.spec.minimal.has(type);
  }

  private view(type: OmType, ordinal: number, include: ReadonlySet<OmRelation>): RawJson | null {
    if (!this.usesViews(type)) return null;
    const bytes = this.cat.views!.get('om', OUR_TYPE[type] as ViewType, ordinal);
    if (bytes === null) return null;
    if (include.size === 0) return new RawJson([bytes]);
    return withRelationships(bytes, type === 'songs' ? this.songRelationships(ordinal, include) : this.relationships(type, ordinal, include));
  }

  song(ordinal: number, include: ReadonlySet<OmRelation>): Json | RawJson {
    const view = this.view('songs', ordinal, include);
    if (view) return view;
    const cat = this.cat;
    const r = cat.song(ordinal);
    const out: Json = { id: r.id, type: 'songs' };
    if (!this.spec.minimal.has('songs')) {
      out.attributes = {
        name: r.name,
        album_name: r.albumName,
        artist_name: r.artistName,
        isrc: r.isrc,
        artwork_url: artworkUri(r.artworkUrl),
        track_number: r.trackNumber,
        disc_number: r.discNumber,
        genres: r.genres,
        release_date: fullDate(r.releaseDate),
      };
    }
    out.meta = { omm_id: r.ommId };
    const files: Json[] = [];
    for (const f of cat.relation('song.files').targetsOf(ordinal)) {
      const file = omFile(cat.file(f));
      if (file) files.push(file);
    }
    out.instance = { duration_in_ms: r.durationMs ?? 0, files, has_lyrics: r.lyricsLanguages.length > 0 };
    if (include.size > 0) out.relationships = this.songRelationships(ordinal, include, r.lyricsLanguages);
    return out;
  }

  /** A song's included relationships, with its lyrics in the request's language when asked for. */
  private songRelationships(ordinal: number, include: ReadonlySet<OmRelation>, languages?: string[]): Json {
    const relationships = this.relationships('songs', ordinal, include);
    if (include.has('lyrics')) {
      const lyrics = lyricsFor(this.cat, ordinal, languages ?? this.cat.song(ordinal).lyricsLanguages, this.spec.lang);
      if (lyrics) relationships.lyrics = lyricsObject(lyrics);
    }
    return relationships;
  }

  album(ordinal: number, include: ReadonlySet<OmRelation>): Json | RawJson {
    const view = this.view('albums', ordinal, include);
    if (view) return view;
    const r = this.cat.album(ordinal);
    const out: Json = { id: r.id, type: 'albums' };
    if (!this.spec.minimal.has('albums')) {
      out.attributes = {
        name: r.name,
        artist_name: r.artistName,
        upc: r.upc,
        artwork_url: artworkUri(r.artworkUrl),
        track_count: r.trackCount,
        genres: r.genres,
        release_date: fullDate(r.releaseDate),
      };
    }
    out.meta = { omm_id: r.ommId };
    return this.withRelationships(out, 'albums', ordinal, include);
  }

  artist(ordinal: number, include: ReadonlySet<OmRelation>): Json | RawJson {
    const view = this.view('artists', ordinal, include);
    if (view) return view;
    const r = this.cat.artist(ordinal);
    const out: Json = { id: r.id, type: 'artists' };
    if (!this.spec.minimal.has('artists')) out.attributes = { name: r.name, artwork_url: artworkUri(r.artworkUrl), genres: r.genres };
    out.meta = { omm_id: r.ommId };
    return this.withRelationships(out, 'artists', ordinal, include);
  }

  playlist(ordinal: number, include: ReadonlySet<OmRelation>): Json | RawJson {
    const view = this.view('playlists', ordinal, include);
    if (view) return view;
    const r = this.cat.playlist(ordinal);
    const out: Json = { id: r.id, type: 'playlists' };
    if (!this.spec.minimal.has('playlists')) {
      // The standard types curator_name as a string: a playlist without a curator shows "".
      out.attributes = { name: r.name, curator_name: r.curatorName ?? '', description: r.description, artwork_url: artworkUri(r.artworkUrl), genres: r.genres };
    }
    return this.withRelationships(out, 'playlists', ordinal, include);
  }

  station(view: StationView, include: ReadonlySet<OmRelation> = this.spec.include): Json {
    const r = view.record;
    const out: Json = { id: r.id, type: 'stations' };
    if (!this.spec.minimal.has('stations')) {
      out.attributes = { name: r.name, seed: this.seed(r), description: r.description, artwork_url: artworkUri(r.artworkUrl), genres: this.stationGenres(r) };
    }
    if (include.has('tracks')) out.relationships = { tracks: this.included('tracks', 'songs', view.tracks) };
    return out;
  }

  /** `{kind: artist, artist}` (a minimal artist), `{kind: genre, genre}` or `{kind: popular}`. */
  private seed(r: StationRecord): Json {
    const seed = r.seed;
    if (seed.kind === 'genre') return { kind: 'genre', genre: seed.name };
    if (seed.kind === 'resource' && seed.type === 'artist') {
      const artist = this.cat.resolve('artist', seed.id);
      if (artist >= 0) return { kind: 'artist', artist: { id: seed.id, type: 'artists', meta: { omm_id: this.cat.artist(artist).ommId } } };
    }
    return { kind: 'popular' };
  }

  private stationGenres(r: StationRecord): string[] {
    if (r.seed.kind === 'genre') return [r.seed.name];
    if (r.seed.kind === 'resource' && r.seed.type === 'artist') {
      const artist = this.cat.resolve('artist', r.seed.id);
      return artist >= 0 ? this.cat.artist(artist).genres : [];
    }
    return [];
  }

  private withRelationships(out: Json, type: OmType, ordinal: number, include: ReadonlySet<OmRelation>): Json {
    if (include.size > 0) out.relationships = this.relationships(type, ordinal, include);
    return out;
  }

  /** The included relationships of a resource (lyrics apart), each as a plain array. */
  private relationships(type: OmType, ordinal: number, include: ReadonlySet<OmRelation>): Json {
    const out: Json = {};
    const ours = RELATIONS[OUR_TYPE[type]] as Record<string, string>;
    for (const rel of include) {
      const target = OM_RELATIONS[type][rel];
      if (!target) continue;
      const targets = this.cat.relation(ours[OUR_RELATION[rel]]).targetsOf(ordinal);
      const sorted = sortByRank(this.cat, OUR_TYPE[target], targets, DEFAULT_RELATION_SORT[relationKey(OUR_TYPE[type], OUR_RELATION[rel])]);
      out[rel] = this.included(rel, target, sorted);
    }
    return out;
  }

  /** Included resources: `limit[<rel>]` of them (default 25), rendered without relationships. */
  private included(rel: OmRelation, target: OmType, ordinals: ArrayLike<number>): (Json | RawJson)[] {
    const limit = this.spec.limits.get(rel) ?? INCLUDED_DEFAULT;
    return mapOrdinals(ordinals, limit, (o) => this.resource(target, o, NONE));
  }
}

const NONE: ReadonlySet<OmRelation> = new Set();

/**
 * A file as the standard shows it: `bitrate` in bits per second, `download_url` required (the
 * stream URL when the file has no download URL; a file with neither is not listed).
 */
/** Lyrics as the standard shows them. */
export const lyricsObject = (l: LyricsRecord): Json => ({ text: l.text, language: l.language });

export function omFile(f: FileRecord): Json | null {
  const download = f.downloadUrl ?? f.streamUrl;
  if (download === null) return null;
  return {
    download_url: download,
    lossless: f.lossless,
    mime_type: f.mimeType,
    codec: f.codec,
    bitrate: f.bitrateKbps === null ? null : f.bitrateKbps * 1000,
    stream_url: f.streamUrl,
  };
}

/**
 * The standard types release_date as a full date: a year or year-month from the raw data is
 * completed with the first month or day (interface 1 keeps the raw precision).
 */
export function fullDate(date: string | null): string | null {
  if (date === null) return null;
  if (/^[0-9]{4}$/.test(date)) return `${date}-01-01`;
  if (/^[0-9]{4}-[0-9]{2}$/.test(date)) return `${date}-01`;
  return date;
}
