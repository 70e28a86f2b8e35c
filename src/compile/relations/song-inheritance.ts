import type { EntityColumns } from '../validate/entity-files.js';
import { NONE } from '../validate/raw-refs.js';

/** What a song shows of its primary album when it has none of its own: genres, release date, artwork. */
export class SongInheritance {
  constructor(
    private readonly songs: EntityColumns,
    private readonly albums: EntityColumns,
    readonly primaryAlbum: Uint32Array,
  ) {}

  genres(song: number): Uint32Array {
    const own = this.songs.genres.get(song);
    const album = this.primaryAlbum[song];
    return own.length > 0 || album === NONE ? own : this.albums.genres.get(album);
  }

  /** '' when neither has one. */
  releaseText(song: number): string {
    const own = this.songs.releaseText.get(song);
    const album = this.primaryAlbum[song];
    return own !== '' || album === NONE ? own : this.albums.releaseText.get(album);
  }

  /** '' when neither has one. */
  artwork(song: number): string {
    const own = this.songs.artwork.get(song);
    const album = this.primaryAlbum[song];
    return own !== '' || album === NONE ? own : this.albums.artwork.get(album);
  }
}
