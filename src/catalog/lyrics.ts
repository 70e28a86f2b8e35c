import type { Catalog } from './catalog.js';
import type { LyricsRecord } from './records.js';

/** Picks the lyrics for `lang`: exact tag, then same language, then English, then the first. */
export function chooseLyrics(languages: readonly string[], lang: string | undefined): number {
  if (languages.length === 0) return -1;
  const lower = languages.map((l) => l.toLowerCase());
  const primary = (tag: string) => tag.split('-')[0];
  if (lang) {
    const wanted = lang.toLowerCase();
    const exact = lower.indexOf(wanted);
    if (exact >= 0) return exact;
    const same = lower.findIndex((l) => primary(l) === primary(wanted));
    if (same >= 0) return same;
  }
  const enUs = lower.indexOf('en-us');
  if (enUs >= 0) return enUs;
  const en = lower.findIndex((l) => primary(l) === 'en');
  return en >= 0 ? en : 0;
}

/** A song's lyrics in the language `lang` asks for (chooseLyrics), or null when it has none. */
export function lyricsFor(cat: Catalog, song: number, languages: readonly string[], lang: string | undefined): LyricsRecord | null {
  const pick = chooseLyrics(languages, lang);
  return pick < 0 ? null : cat.lyrics(cat.relation('song.lyrics').targetsOf(song, pick, pick + 1)[0]);
}
