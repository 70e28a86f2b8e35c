import { searchText } from '../../index-format/search/search-text.js';

/**
 * Normalisation for matching a user's metadata against the catalog (shared by the server's
 * matcher and any compile-time key it may precompute). On top of searchText (NFKD, case and
 * accent folding, punctuation): version and featuring decorations are split off so they can be
 * treated as optional, and artist credits become a set.
 */

/** Words that make a bracketed or dashed part of a title a version note rather than the title. */
const VERSION_WORDS =
  /\b(remaster(ed)?|live|remix(ed)?|mix|edit|version|mono|stereo|acoustic|demo|instrumental|radio|single|album|deluxe|bonus|explicit|clean|extended|original|unplugged|session|take|re-?recorded|anniversary|edition|feat\.?|ft\.?|featuring|with|from|soundtrack|ost|karaoke|cover|vivo|en directo|ao vivo)\b/i;
/** A bracketed part, which may hold one level of parentheses ("[feat. E1 (3x3) & ZT (3x3)]"). */
const BRACKETED = /\s*[([{（【［]((?:[^()\[\]{}（）【】［］]|[(（][^()（）]*[)）])*)[)\]}）】］]/g;
const DASH = /\s+[-–—]\s+/;
const FEATURING = /\s+(?:feat\.?|ft\.?|featuring)\s+(.*)$/i;
/** A bracketed note crediting guests: "(feat. X)", "[ft. X & Y]", "(with X)". */
const FEATURING_NOTE = /^\s*(?:feat\.?|ft\.?|featuring|with|con|part\.)\s+(.+)$/i;

/** Words of a version note that say little about which version it is ("Pop Version" vs "Inferno Version"). */
const GENERIC_VERSION_WORDS = new Set(['version', 'edit', 'mix', 'from', 'the', 'a', 'of', 'and', 'in', 'at', 'on', 'by', 'de', 'la', 'el']);

export interface MatchTitle {
  /** The whole title, normalised. */
  readonly full: string;
  /** The title without featuring credits but with its version notes, normalised. */
  readonly plain: string;
  /** The title without version notes and featuring credits, normalised (equals `full` when it had none). */
  readonly core: string;
  /** The title proper: the words before any bracket or " - " part ("Waka Waka" of "Waka Waka (This Time for Africa)"). */
  readonly head: string;
  /** The guests the title credits ("(feat. X & Y)", "(with X)", " ft. X"), as an artist set; empty when none. */
  readonly featuring: readonly string[];
  /** The distinctive words of its version notes ("remastered 2011", "live"), normalised; empty when none. */
  readonly versionWords: readonly string[];
}

/** What any decoration starts with: a bracket, a dash, or a featuring word. */
const MAYBE_DECORATED = /[([{（【［\-–—]|\b(?:feat|ft|featuring)\b/i;

export function matchTitle(title: string): MatchTitle {
  const text = title.normalize('NFKC');
  if (!MAYBE_DECORATED.test(text)) {
    // No brackets, dashes or featuring words: every part is the whole title.
    const full = searchText(text);
    return { full, plain: full, core: full, head: full, featuring: [], versionWords: [] };
  }
  const guests: string[] = [];
  const versions: string[] = [];
  let plain = text.replace(BRACKETED, (part, inner: string) => {
    const note = FEATURING_NOTE.exec(inner);
    if (!note) return part;
    guests.push(note[1]);
    return ' ';
  });
  let core = plain.replace(BRACKETED, (part, inner: string) => {
    if (!VERSION_WORDS.test(inner)) return part;
    versions.push(inner);
    return ' ';
  });
  // Trailing " - ..." parts naming a version, last first ("Wellerman - Sea Shanty - Live" keeps "Sea Shanty").
  const parts = core.split(DASH);
  while (parts.length > 1 && VERSION_WORDS.test(parts[parts.length - 1])) versions.push(parts.pop() as string);
  core = parts.join(' - ');
  const trailingGuests = (_: string, names: string) => {
    guests.push(names);
    return '';
  };
  core = core.replace(FEATURING, trailingGuests);
  plain = plain.replace(FEATURING, (_, names: string) => (guests.includes(names) ? '' : trailingGuests(_, names)));
  const full = searchText(text);
  const nonEmpty = (normal: string) => (normal.length > 0 ? normal : full);
  const versionWords = new Set(versions.flatMap((v) => searchText(v).split(' ')).filter((w) => w.length > 1 && !GENERIC_VERSION_WORDS.has(w)));
  return {
    full,
    plain: nonEmpty(searchText(plain)),
    core: nonEmpty(searchText(core)),
    head: nonEmpty(searchText(plain.split(DASH)[0].split(/[([{（【［]/)[0])),
    featuring: [...new Set(guests.flatMap((g) => artistSet(g)))],
    versionWords: [...versionWords],
  };
}

/** Joiners between credited artists; the word joiners only as whole words in any script ("Yến" is no "y"). */
const ARTIST_SEPARATORS = /\s*(?:,|;|\/|&|\+|(?<![\p{L}\p{N}])(?:x|and|und|et|y|e|vs\.?|feat\.?|ft\.?|featuring|with|con)(?![\p{L}\p{N}]))\s*/iu;

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
