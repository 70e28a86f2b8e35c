import { describe, expect, it } from 'vitest';
import { detectKind } from './entity.js';

describe('detectKind', () => {
  it('tells releases, recordings and artists apart by their keys', () => {
    expect(detectKind({ id: 'x', title: 'T', barcode: null })).toBe('release');
    expect(detectKind({ id: 'x', title: 'T', media: [] })).toBe('release');
    expect(detectKind({ id: 'x', title: 'T', 'cover-art-archive': {} })).toBe('release');
    expect(detectKind({ id: 'x', title: 'T', video: false, length: null })).toBe('recording');
    expect(detectKind({ id: 'x', title: 'T', isrcs: [], releases: [] })).toBe('recording');
    expect(detectKind({ id: 'x', name: 'N', 'sort-name': 'N', gender: null })).toBe('artist');
    expect(detectKind({ id: 'x', name: 'N', 'sort-name': 'N', ipis: [], isnis: [], 'life-span': {} })).toBe('artist');
  });

  it('knows no other entity', () => {
    expect(detectKind({ id: 'x', name: 'L', 'sort-name': 'L', ipis: [], isnis: [], 'label-code': 7 })).toBeUndefined(); // label
    expect(detectKind({ id: 'x', name: 'Japan', 'sort-name': 'Japan', 'iso-3166-1-codes': ['JP'], 'life-span': {} })).toBeUndefined(); // area
    expect(detectKind({ id: 'x', title: 'W', iswcs: [], languages: [] })).toBeUndefined(); // work
    expect(detectKind({ id: 'x', title: 'G', 'primary-type': 'Album', 'first-release-date': '2001' })).toBeUndefined(); // release group
  });
});
