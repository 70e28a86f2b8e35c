import { describe, expect, it } from 'vitest';
import { Query } from '../query.js';
import { parseInclude } from './params.js';

describe('parseInclude', () => {
  it('parses a valid include once and hands the same tree to later requests', () => {
    const first = parseInclude(new Query('include=albums,artists'), 'song');
    const again = parseInclude(new Query('include=albums%2Cartists'), 'song');
    expect([...first.children.keys()]).toEqual(['albums', 'artists']);
    expect(again).toBe(first);
    // Another root type is another tree.
    const album = parseInclude(new Query('include=artists'), 'album');
    expect(album).not.toBe(parseInclude(new Query('include=artists'), 'song'));
  });

  it('reports an invalid include on every request, not only the first', () => {
    for (let i = 0; i < 2; i++) {
      const q = new Query('include=albums,lyrics');
      const tree = parseInclude(q, 'song');
      expect([...tree.children.keys()]).toEqual(['albums']);
      expect(q.problems.map((p) => p.value)).toEqual(['lyrics']);
    }
  });

  it('gives an absent include the one shared empty tree (nothing made per request)', () => {
    const absent = parseInclude(new Query(''), 'song');
    expect(absent.children.size).toBe(0);
    expect(parseInclude(new Query('limit=5'), 'album')).toBe(absent);
  });
});
