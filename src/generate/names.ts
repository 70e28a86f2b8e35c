import { Prng, Zipf } from './prng.js';
import { SCRIPTS, type Script } from './vocabulary.js';

const ADDED_FROM = Date.UTC(2015, 0, 1);
const ADDED_SPAN = Date.UTC(2026, 9, 1) - ADDED_FROM;

/**
 * The generator's draws of names, dates and popularity. Each takes the stream it draws from, so
 * the catalog model and the raw extras (playlists, lyrics) draw exactly what they always drew:
 * the same seed gives the same values whatever else is generated beside them.
 */
export class Namer {
  private readonly scriptWeights = SCRIPTS.reduce((sum, s) => sum + s.weight, 0);
  private readonly zipfByScript = new Map<Script, Zipf>(SCRIPTS.map((s) => [s, new Zipf(s.words.length)]));

  /** An index into SCRIPTS, weighted so most names are Latin. */
  pickScript(r: Prng): number {
    let u = r.next() * this.scriptWeights;
    for (let i = 0; i < SCRIPTS.length; i++) if ((u -= SCRIPTS[i].weight) < 0) return i;
    return 0;
  }

  /** `min` to `max` words of `script` with Zipf frequencies, capitalised where the script has case. */
  words(r: Prng, script: Script, min: number, max: number): string {
    const n = r.int(min, max);
    const zipf = this.zipfByScript.get(script)!;
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const word = script.words[zipf.sample(r)];
      parts.push(script.joiner === ' ' && script.name !== 'arabic' ? word[0].toUpperCase() + word.slice(1) : word);
    }
    return parts.join(script.joiner);
  }

  /** Power law, 0..100000. */
  popularity(r: Prng): number {
    return Math.floor(100000 / Math.pow(1 + r.next() * 999, 1.6));
  }

  /** An instant from 2015 to October 2026, whole seconds, `YYYY-MM-DDTHH:MM:SSZ`. */
  addedAt(r: Prng): string {
    return new Date(ADDED_FROM + Math.floor(r.next() * (ADDED_SPAN / 1000)) * 1000).toISOString().replace('.000Z', 'Z');
  }

  /** A date in `year` at year (5 %), month (15 %) or day precision. */
  releaseDate(r: Prng, year: number): string {
    const precision = r.next();
    const month = String(r.int(1, 12)).padStart(2, '0');
    if (precision < 0.05) return String(year);
    if (precision < 0.2) return `${year}-${month}`;
    return `${year}-${month}-${String(r.int(1, 28)).padStart(2, '0')}`;
  }
}
