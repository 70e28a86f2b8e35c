/**
 * How derived stations are made, shared by the compile (src/compile/relations/station-plan.ts,
 * which writes every station's tracks) and the server under a deletes set (live-stations.ts,
 * which makes them again from the songs in service): one set of rules, so the two cannot drift.
 */

/** How many tracks a derived resource station holds, and the popular station. */
export const STATION_LENGTH = 50;
export const POPULAR_STATION_LENGTH = 100;
/** The seed's own most popular songs a resource station starts with. */
export const SEED_SHARE = 25;
/** The filler's start is picked by the seed id among its first this many songs. */
const FILL_WINDOW = 500;

/** The seed's own songs, then songs from `filler` (from a start picked by the seed id) up to the station length. */
export function fill(own: number[], filler: ArrayLike<number>, seedId: string): number[] {
  const tracks = [...own];
  const seen = new Set(tracks);
  if (filler.length > 0) {
    const window = Math.min(filler.length, FILL_WINDOW);
    const start = stableHash(seedId) % window;
    for (let i = 0; i < filler.length && tracks.length < STATION_LENGTH; i++) {
      const song = filler[(start + i) % filler.length];
      if (!seen.has(song)) {
        seen.add(song);
        tracks.push(song);
      }
    }
  }
  return tracks;
}

function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
