import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertMatchesReference, REFERENCE_PATH, referenceAvailable } from './helpers/reference-validator.js';

// The reference validator that checks every /openmusic response in the suite
// (test/helpers/server.ts) is really on: it accepts the standard's own example and rejects
// bodies that break the standard's component schemas.
if (!referenceAvailable) console.warn(`[openmusic-reference] SKIPPED: ${REFERENCE_PATH} is not beside the project`);

describe.skipIf(!referenceAvailable)('the OpenMusic reference schemas', () => {
  const example = () => JSON.parse(readFileSync(join(dirname(REFERENCE_PATH), 'examples', 'i2_song_full_with_relationships.json'), 'utf8'));

  // The standard's own example writes artwork as `{w}x{h}` templates, which its `format: uri`
  // rejects; with them sized, as interface 2 serves them, the example passes.
  const sized = (body: unknown): unknown => JSON.parse(JSON.stringify(body).replace(/\{[wh]\}/g, '600'));

  it("accept the standard's own full song example", () => {
    expect(assertMatchesReference('/openmusic/songs/1866862252', 200, sized(example()))).toBe(
      '/paths/~1songs~1{id}/get/responses/200/content/application~1json/schema',
    );
  });

  it('reject artwork that is a template rather than a URI', () => {
    expect(() => assertMatchesReference('/openmusic/songs/1866862252', 200, example())).toThrow(/artwork_url.*must match format "uri"/s);
  });

  it('reject a song without instance, a number as omm_id, a list without has_next_page, an error without trace_id', () => {
    const noInstance = sized(example()) as ReturnType<typeof example>;
    delete noInstance.data.instance;
    expect(() => assertMatchesReference('/openmusic/songs/1', 200, noInstance)).toThrow(/does not match the reference/);
    const badMeta = sized(example()) as ReturnType<typeof example>;
    badMeta.data.meta.omm_id = 5;
    expect(() => assertMatchesReference('/openmusic/songs/1', 200, badMeta)).toThrow(/does not match/);
    expect(() => assertMatchesReference('/openmusic/songs', 200, { data: [], meta: { limit: 25, offset: 0 } })).toThrow(/has_next_page/);
    expect(() => assertMatchesReference('/openmusic/songs/x', 404, { error: { code: 404, title: 'Not Found', message: 'x' } })).toThrow(/trace_id/);
    expect(() => assertMatchesReference('/openmusic/genres', 200, {})).toThrow(/no such operation/);
  });
});
