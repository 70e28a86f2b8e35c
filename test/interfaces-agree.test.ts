import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_RAW, serveRaw, type TestServer } from './helpers/server.js';

// The same catalog read through both interfaces agrees field by field, over every song, album
// and artist of the bundled sample (pages of both list endpoints, in the same name order).

type V1 = { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data: { id: string }[] }> };
type Om = {
  id: string;
  attributes: Record<string, unknown>;
  meta?: { omm_id: string };
  instance?: Record<string, unknown>;
  relationships?: Record<string, { id: string }[]>;
};

/** Interface 2's release dates are full dates; interface 1 keeps the raw precision. */
const fullDate = (d: unknown) => (typeof d !== 'string' ? null : d.length === 4 ? `${d}-01-01` : d.length === 7 ? `${d}-01` : d);
const orNull = (v: unknown) => (v === undefined ? null : v);

describe('interface 1 and interface 2 agree on the whole sample', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serveRaw(SAMPLE_RAW);
  });
  afterAll(() => s.close());

  async function all<T>(path: (offset: number) => string, pageSize: number): Promise<T[]> {
    const out: T[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const r = await s.get(path(offset));
      expect(r.status).toBe(200);
      out.push(...(r.body.data as T[]));
      if (r.body.data.length < pageSize) return out;
    }
  }

  it('songs: every attribute, the files (bitrate in bps), lyrics presence and relationships', async () => {
    const v1 = await all<V1>((o) => `/v1/songs?limit=100&offset=${o}&include=albums,artists&limit[song:albums]=25`, 100);
    const om = await all<Om>((o) => `/openmusic/songs?limit=25&offset=${o}&include=albums,artists`, 25);
    expect(om.map((x) => x.id)).toEqual(v1.map((x) => x.id));
    expect(v1.length).toBe(s.running.catalog.counts.songs);
    v1.forEach((a, i) => {
      const b = om[i];
      const attrs = a.attributes;
      expect(b.attributes, a.id).toEqual({
        name: attrs.name,
        album_name: orNull(attrs.albumName),
        artist_name: orNull(attrs.artistName),
        isrc: orNull(attrs.isrc),
        artwork_url: orNull(attrs.artworkUrl),
        track_number: orNull(attrs.trackNumber),
        disc_number: orNull(attrs.discNumber),
        genres: attrs.genres ?? [],
        release_date: fullDate(attrs.releaseDate),
      });
      const files = attrs.files as { preferred: Record<string, unknown>; alternatives: Record<string, unknown>[] } | undefined;
      const v1Files = files ? [files.preferred, ...files.alternatives] : [];
      expect(b.instance, a.id).toEqual({
        duration_in_ms: attrs.durationMs ?? 0,
        files: v1Files
          .filter((f) => f.downloadUrl !== undefined || f.streamUrl !== undefined)
          .map((f) => ({
            download_url: f.downloadUrl ?? f.streamUrl,
            lossless: f.lossless,
            mime_type: f.mimeType,
            codec: orNull(f.codec),
            bitrate: f.bitrateKbps === undefined ? null : (f.bitrateKbps as number) * 1000,
            stream_url: orNull(f.streamUrl),
          })),
        has_lyrics: attrs.lyrics !== undefined,
      });
      for (const rel of ['albums', 'artists']) {
        expect(
          b.relationships?.[rel].map((x) => x.id),
          `${a.id} ${rel}`,
        ).toEqual(a.relationships?.[rel].data.map((x) => x.id));
      }
    });
  });

  it('albums and artists: every attribute', async () => {
    const v1Albums = await all<V1>((o) => `/v1/albums?limit=100&offset=${o}`, 100);
    const omAlbums = await all<Om>((o) => `/openmusic/albums?limit=25&offset=${o}`, 25);
    expect(omAlbums.map((x) => x.id)).toEqual(v1Albums.map((x) => x.id));
    v1Albums.forEach((a, i) => {
      const attrs = a.attributes;
      expect(omAlbums[i].attributes, a.id).toEqual({
        name: attrs.name,
        artist_name: orNull(attrs.artistName),
        upc: orNull(attrs.upc),
        artwork_url: orNull(attrs.artworkUrl),
        track_count: orNull(attrs.trackCount),
        genres: attrs.genres ?? [],
        release_date: fullDate(attrs.releaseDate),
      });
    });
    const v1Artists = await all<V1>((o) => `/v1/artists?limit=100&offset=${o}`, 100);
    const omArtists = await all<Om>((o) => `/openmusic/artists?limit=25&offset=${o}`, 25);
    expect(omArtists.map((x) => x.id)).toEqual(v1Artists.map((x) => x.id));
    v1Artists.forEach((a, i) => expect(omArtists[i].attributes.name).toBe(a.attributes.name));
  });

  it('meta.omm_id is the catalog id interface 1 serves on /catalog', async () => {
    const om = await all<Om>((o) => `/openmusic/songs?limit=25&offset=${o}&view=minimal`, 25);
    for (let i = 0; i < om.length; i += 100) {
      const chunk = om.slice(i, i + 100);
      const r = await s.get(`/v1/catalog?ids=${chunk.map((x) => `omm:song:${x.meta!.omm_id}`).join(',')}`);
      expect(r.body.data.map((x: { id: string }) => x.id)).toEqual(chunk.map((x) => `omm:song:${x.meta!.omm_id}`));
    }
    const names = await all<Om>((o) => `/openmusic/songs?limit=25&offset=${o}`, 25);
    const catalog = await s.get(
      `/v1/catalog?ids=${names
        .slice(0, 50)
        .map((x) => `omm:song:${x.meta!.omm_id}`)
        .join(',')}`,
    );
    expect(catalog.body.data.map((x: V1) => x.attributes.name)).toEqual(names.slice(0, 50).map((x) => x.attributes.name));
  });
});
