import { RELATION_TARGET, RELATIONS, type Catalog, type ResourceType } from '../../catalog/catalog.js';
import type { FileRecord, LyricsRecord } from '../../catalog/records.js';
import { lyricsFor } from '../../catalog/lyrics.js';
import { mapOrdinals, sliceOrdinals } from '../../catalog/ordinal-slice.js';
import { DEFAULT_RELATION_SORT, relationKey, sortByRank } from '../../catalog/relation-order.js';
import type { StationView } from '../../catalog/stations.js';
import { RawJson, withRelationships } from '../json-chunks.js';
import type { ViewType } from '../../catalog/views.js';
import { ATTRIBUTES, type AttributeSet } from './attributes.js';
import { DEFAULT_LIMIT, type IncludeNode, type RenderSpec } from './spec.js';

type Json = Record<string, unknown>;

/** Sets `key` when the spec keeps it and the value is present (interface 1 omits absent values). */
export function put(out: Json, keep: ReadonlySet<string> | undefined, key: string, value: unknown): void {
  if (value === null || value === undefined) return;
  if (keep && !keep.has(key)) return;
  out[key] = value;
}

/**
 * Puts the attributes of `set` for `type`, in the table's order, from the record's fields of
 * the same names (attributes.ts is the one list of what each variant renders). `special`
 * renders the attributes that are not plain record fields (a song's files and lyrics).
 */
export function putAttributes(
  out: Json,
  keep: ReadonlySet<string> | undefined,
  set: AttributeSet,
  type: ResourceType,
  record: object,
  special?: (name: string) => unknown,
): Json {
  const fields = record as Record<string, unknown>;
  for (const name of ATTRIBUTES[set][type]) {
    if (special && (name === 'files' || name === 'lyrics')) {
      if (!keep || keep.has(name)) {
        const value = special(name);
        if (value !== undefined) out[name] = value;
      }
    } else put(out, keep, name, fields[name]);
  }
  return out;
}

/** A song's file; its duration is its own or, when its row had none, the song's. */
export function fileObject(f: FileRecord, songDurationMs: number | null): Json {
  const out: Json = { id: f.id, lossless: f.lossless, mimeType: f.mimeType };
  put(out, undefined, 'sizeBytes', f.sizeBytes);
  put(out, undefined, 'durationMs', f.durationMs ?? songDurationMs);
  put(out, undefined, 'streamUrl', f.streamUrl);
  put(out, undefined, 'downloadUrl', f.downloadUrl);
  put(out, undefined, 'codec', f.codec);
  put(out, undefined, 'bitrateKbps', f.bitrateKbps);
  put(out, undefined, 'sampleRateHz', f.sampleRateHz);
  put(out, undefined, 'channels', f.channels);
  return out;
}

function lyricsObject(l: LyricsRecord): Json {
  const out: Json = { lang: l.language, text: l.text };
  put(out, undefined, 'ttml', l.ttml);
  return out;
}

/**
 * Renders interface-1 resources (non-catalog endpoints): attributes filtered by `fields`,
 * relationships included as the include tree says, each with `{data, meta}`.
 */
export class V1Renderer {
  constructor(
    readonly cat: Catalog,
    readonly spec: RenderSpec,
  ) {}

  resource(type: ResourceType, ordinal: number, include: IncludeNode | null = this.spec.include): Json | RawJson {
    switch (type) {
      case 'song':
        return this.song(ordinal, include);
      case 'album':
        return this.album(ordinal, include);
      case 'artist':
        return this.artist(ordinal, include);
      case 'playlist':
        return this.playlist(ordinal, include);
      case 'station':
        throw new Error('stations render from a StationView');
    }
  }

  list(type: ResourceType, ordinals: ArrayLike<number>, include: IncludeNode | null = this.spec.include): (Json | RawJson)[] {
    if (ordinals.length > 1 && type !== 'station' && this.usesViews(type)) this.cat.views!.touch('v1', type, ordinals);
    return mapOrdinals(ordinals, ordinals.length, (o) => this.resource(type, o, include));
  }

  /** Whether this request renders `type` from stored views: its default view, and the snapshot has them. */
  private usesViews(type: ViewType): boolean {
    const spec = this.spec;
    return this.cat.views !== null && spec.attributes === 'full' && !spec.fields.has(type) && !(type === 'song' && spec.lang !== undefined);
  }

  /**
   * The stored default view of a resource, when this request renders that type in its default
   * view (all attributes, no language) and the snapshot has views; otherwise null.
   */
  private view(type: ViewType, ordinal: number, include: IncludeNode | null): RawJson | null {
    if (!this.usesViews(type)) return null;
    const bytes = this.cat.views!.get('v1', type, ordinal);
    if (bytes === null) return null;
    if (!include || include.children.size === 0) return new RawJson([bytes]);
    return withRelationships(bytes, this.relationships(type, ordinal, include));
  }

  song(ordinal: number, include: IncludeNode | null): Json | RawJson {
    const view = this.view('song', ordinal, include);
    if (view) return view;
    const cat = this.cat;
    const r = cat.song(ordinal);
    const attributes = putAttributes({}, this.spec.fields.get('song'), 'full', 'song', r, (name) => {
      if (name === 'files') {
        const files = cat.relation('song.files').targetsOf(ordinal);
        return files.length > 0
          ? {
              preferred: fileObject(cat.file(files[0]), r.durationMs),
              alternatives: sliceOrdinals(files, 1, files.length).map((f) => fileObject(cat.file(f), r.durationMs)),
            }
          : undefined;
      }
      const lyrics = lyricsFor(cat, ordinal, r.lyricsLanguages, this.spec.lang);
      return lyrics ? lyricsObject(lyrics) : undefined;
    });
    return this.wrap('song', r.id, attributes, ordinal, include);
  }

  album(ordinal: number, include: IncludeNode | null): Json | RawJson {
    const view = this.view('album', ordinal, include);
    if (view) return view;
    const r = this.cat.album(ordinal);
    return this.wrap('album', r.id, putAttributes({}, this.spec.fields.get('album'), 'full', 'album', r), ordinal, include);
  }

  artist(ordinal: number, include: IncludeNode | null): Json | RawJson {
    const view = this.view('artist', ordinal, include);
    if (view) return view;
    const r = this.cat.artist(ordinal);
    return this.wrap('artist', r.id, putAttributes({}, this.spec.fields.get('artist'), 'full', 'artist', r), ordinal, include);
  }

  playlist(ordinal: number, include: IncludeNode | null): Json | RawJson {
    const view = this.view('playlist', ordinal, include);
    if (view) return view;
    const r = this.cat.playlist(ordinal);
    return this.wrap('playlist', r.id, putAttributes({}, this.spec.fields.get('playlist'), 'full', 'playlist', r), ordinal, include);
  }

  station(view: StationView, include: IncludeNode | null = this.spec.include): Json {
    const r = view.record;
    const out: Json = { id: r.id, type: 'station', attributes: putAttributes({}, this.spec.fields.get('station'), 'full', 'station', r) };
    const tracks = include?.children.get('tracks');
    if (tracks) out.relationships = { tracks: this.relationship('station', 'tracks', view.tracks, tracks) };
    return out;
  }

  private wrap(type: ResourceType, id: string, attributes: Json, ordinal: number, include: IncludeNode | null): Json {
    const out: Json = { id, type, attributes };
    if (include && include.children.size > 0) out.relationships = this.relationships(type, ordinal, include);
    return out;
  }

  private relationships(type: ResourceType, ordinal: number, include: IncludeNode): Json {
    const relationships: Json = {};
    const names = RELATIONS[type] as Record<string, string>;
    for (const [rel, child] of include.children) {
      relationships[rel] = this.relationship(type, rel, this.cat.relation(names[rel]).targetsOf(ordinal), child);
    }
    return relationships;
  }

  /** `{data, meta: {limit, offset, total}}` of an included relationship, sorted and limited. */
  relationship(type: ResourceType, rel: string, targets: ArrayLike<number>, child: IncludeNode): Json {
    const key = relationKey(type, rel);
    const limit = this.spec.limits.get(key) ?? DEFAULT_LIMIT;
    const targetType = RELATION_TARGET[rel];
    const sorted = sortByRank(this.cat, targetType, targets, this.spec.sorts.get(key) ?? DEFAULT_RELATION_SORT[key]);
    return { data: mapOrdinals(sorted, limit, (o) => this.resource(targetType, o, child)), meta: { limit, offset: 0, total: targets.length } };
  }
}
