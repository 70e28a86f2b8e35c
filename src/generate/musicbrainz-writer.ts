import { join } from 'node:path';
import { LineWriter } from './line-writer.js';
import type { CatalogShape, CatalogWriter, GenArtist, GenRelease } from './model.js';
import { MusicBrainzJson } from './musicbrainz-json.js';

/**
 * The catalog as MusicBrainz JSON dumps: `mbdump/artist` (one artist per line) and
 * `mbdump/release` (one release per line, albums then compilations, with media, tracks and
 * recordings inline), plain text as the dump archives hold them. Lines are written as the model
 * hands each entity over.
 */
export class MusicBrainzCatalogWriter implements CatalogWriter {
  private readonly json: MusicBrainzJson;
  private readonly artists: LineWriter;
  private readonly releases: LineWriter;
  private tracks = 0;

  constructor(
    out: string,
    private readonly shape: CatalogShape,
  ) {
    this.json = new MusicBrainzJson(shape);
    this.artists = new LineWriter(join(out, 'mbdump', 'artist'));
    this.releases = new LineWriter(join(out, 'mbdump', 'release'));
  }

  artist(artist: GenArtist): void {
    this.artists.write(JSON.stringify(this.json.artist(artist)));
  }

  release(release: GenRelease): void {
    this.tracks += release.tracks.length;
    this.releases.write(JSON.stringify(this.json.release(release)));
  }

  end(): Record<string, number> {
    this.artists.close();
    this.releases.close();
    // Every song is one recording (a compilation's track reuses its MBID).
    return { artists: this.artists.lines, releases: this.releases.lines, tracks: this.tracks, 'songs once imported': this.shape.songs };
  }
}
