import { searchText } from './search-text.js';

/**
 * Normalisation for matching a user's metadata against the catalog (shared by the server's
 * matcher and any compile-time key it may precompute). On top of searchText (NFKD, case and
 * accent folding, punctuation): version and featuring decorations are split off so they can be
 * treated as optional, and artist credits become a set.
 */

/** Words that make a bracketed or dashed part of a title a version note rather than the title. */
const VERSION_WORDS =
  /\b(remaster(ed)?|live|remix(ed)?|mix|edit|version|mono|stereo|acoustic|demo|instrumental|radio|single|album|deluxe|bonus|explicit|clean|extended|original|unplugged|session|take|re-?recorded|anniversary|edition|feat\.?|ft\.?|featuring|with|from|soundtrack|ost|karaoke|cover|vivo|en directo|ao vivo)\b/i;
const BRACKETED = /\s*[([{（【［]([^)\]}）】］]*)[)\]}）】］]/g;
const DASH = /\s+[-–—]\s+/;
const FEATURING = /\s+(?:feat\.?|ft\.?|featuring)\s+.*$/i;

export interface MatchTitle {
  /** The whole title, normalised. */
  readonly full: string;
  /** The title without version notes and featuring credits, normalised (equals `full` when it had none). */
  readonly core: string;
}

export function matchTitle(title: string): MatchTitle {
  const text = title.normalize('NFKC');
  let core = text.replace(BRACKETED, (part, inner: string) => (VERSION_WORDS.test(inner) ? ' ' : part));
  // Trailing " - ..." parts naming a version, last first ("Wellerman - Sea Shanty - Live" keeps "Sea Shanty").
  const parts = core.split(DASH);
  while (parts.length > 1 && VERSION_WORDS.test(parts[parts.length - 1])) parts.pop();
  core = parts.join(' - ');
  core = core.replace(FEATURING, '');
  const full = searchText(text);
  const coreNormal = searchText(core);
  return { full, core: coreNormal.length > 0 ? coreNormal : full };
}

const ARTIST_SEPARATORS = /\s*(?:,|;|\/|&|\+|\bx\b|\band\b|\bund\b|\bet\b|\by\b|\be\b|\bvs\.?|\bfeat\.?|\bft\.?|\bfeaturing\b|\bwith\b)\s*/i;

/** The credited artists of a free-text credit ("A feat. B & C"), normalised, without repeats. */
export function artistSet(credit: string): string[] {
  const parts = credit.normalize('NFKC').split(ARTIST_SEPARATORS);
  const out = new Set<string>();
  for (const p of parts) {
    const n = searchText(p ?? '');
    if (n.length > 0) out.add(n);
  }
  return [...out];
}

/** The words of a normalised text, sorted: order-free comparison ("b a" equals "a b"). */
export function sortedWords(normal: string): string {
  return normal.split(' ').sort().join(' ');
}
