import { mapU32Column, StringColumn } from '../spill/columns.js';

/**
 * What one search shard is built from, as column files (plain data, so it crosses to a worker).
 * Document r is the r-th most popular resource of its type.
 */
export interface SearchDocumentFiles {
  readonly type: 'song' | 'album' | 'artist' | 'playlist';
  /** u32 column file: the ordinal at each popularity rank r. */
  readonly ordinals: string;
  /** StringColumn path: display name by ordinal. */
  readonly names: string;
  /**
   * Songs and albums: u32 column files `offsets` (count + 1 entries) and `targets` (the credited
   * artist ordinals of ordinal o are targets[offsets[o]..offsets[o+1]), in credit order), and the
   * StringColumn path of artist names by artist ordinal.
   */
  readonly artists?: { readonly offsets: string; readonly targets: string; readonly artistNames: string };
}

/** The input columns mapped (file pages, not the process's own memory). */
export interface SearchInputs {
  readonly type: string;
  readonly ordinals: Uint32Array;
  readonly names: StringColumn;
  readonly credits: { readonly offsets: Uint32Array; readonly targets: Uint32Array; readonly artistNames: StringColumn } | null;
}

export function openSearchInputs(files: SearchDocumentFiles): SearchInputs {
  const a = files.artists;
  return {
    type: files.type,
    ordinals: mapU32Column(files.ordinals),
    names: StringColumn.open(files.names),
    credits: a ? { offsets: mapU32Column(a.offsets), targets: mapU32Column(a.targets), artistNames: StringColumn.open(a.artistNames) } : null,
  };
}

/** Display name of `ordinal`, empty when the column has none. */
export function nameOf(names: StringColumn, ordinal: number): string {
  return ordinal < names.length ? names.get(ordinal) : '';
}
