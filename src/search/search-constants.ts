// The search engine's tiers and bounds, shared by the engine (search-engine.ts, which exports
// them again) and the parts it calls.

/** How well a document matched; smaller is better. */
export const TIER = { exactName: 0, namePrefix: 1, wordSet: 2, allWords: 3, fuzzyWordSet: 4, fuzzy: 5 } as const;

/** Results of one type are counted up to this many: offset + limit may not pass it. */
export const SEARCH_WINDOW = 1000;
/**
 * The ranking's version: the compile stores first pages of one-word and two-word searches ranked
 * by this engine, and counts of two-word searches (first-pages.ts); a server uses them only when
 * its engine ranks the same way. Change it with any change to what searchIndex returns.
 */
export const SEARCH_ENGINE_VERSION = 1;
/** A name-prefix range longer than this is not ranked on its own (its names are still found by their words). */
export const NAME_PREFIX_SCAN = 5_000;
/**
 * Candidates (documents holding the query's rarest word, most popular first) an all-words tier
 * examines before it stops. This bounds the cost of a query of common words: such a query
 * returns the matches among the most popular documents holding its rarest word.
 */
export const CANDIDATE_SCAN = 5_000;
/** The typo-tolerant tier runs when the exact tiers found fewer results than this. */
export const FUZZY_BELOW = 10;
