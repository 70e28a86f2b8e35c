import { describe, expect, it } from 'vitest';
import { encodeJson, parseDescriptor, parsePointer } from './remote-layout.js';
import { parseStoreUrl } from './store-url.js';

const sha = (c: string) => c.repeat(64);
const descriptor = (files: unknown) => Buffer.from(JSON.stringify({ format: 'omm-build', version: 1, buildId: 'abc123', files }));
const file = (name: string, chunks: [string, number][] = [[sha('a'), 10]]) => ({ name, size: chunks.reduce((s, c) => s + c[1], 0), sha256: sha('b'), chunks });

describe('what a publish writes, read back', () => {
  it('a descriptor round-trips, and one naming a path outside its directory is refused', () => {
    const good = { format: 'omm-build' as const, version: 1 as const, buildId: 'abc123', files: [file('manifest.omm'), file('songs.0000.rec')] };
    expect(parseDescriptor(encodeJson(good), 'd')).toEqual(good);
    for (const name of ['../etc/passwd', 'a/b', '..', '.', '', 'x'.repeat(129)])
      expect(() => parseDescriptor(descriptor([file(name)]), 'd'), name).toThrow(expect.objectContaining({ code: 'E_STORE_FORMAT' }));
  });

  it('a descriptor whose chunks do not add up, repeat a name or hold a bad digest is refused, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [[{ ...file('a'), size: 11 }], /files\[0\]\.chunks add up to 10 bytes/],
      [[file('a'), file('a')], /names a file twice/],
      [[file('a', [['nothex', 10]])], /files\[0\]\.chunks\[0\]/],
      [[file('a', [[sha('a'), 0]])], /files\[0\]\.chunks\[0\]/],
      [[], /files is not a list of files/],
    ];
    for (const [files, message] of cases) expect(() => parseDescriptor(descriptor(files), 'd')).toThrow(message);
    expect(() => parseDescriptor(Buffer.from('not json'), 'builds/x.json')).toThrow(/not a JSON object \(builds\/x\.json\)/);
  });

  it('a pointer names a build and the digest of its descriptor', () => {
    const pointer = {
      format: 'omm-current',
      version: 1,
      buildId: 'abc123',
      descriptorSha256: sha('c'),
      publishedAt: '2026-11-29T00:00:00Z',
      history: ['old1'],
    };
    expect(parsePointer(Buffer.from(JSON.stringify(pointer)))).toEqual(pointer);
    expect(() => parsePointer(Buffer.from(JSON.stringify({ ...pointer, buildId: '../x' })))).toThrow(/buildId is not a build id/);
    expect(() => parsePointer(Buffer.from(JSON.stringify({ ...pointer, descriptorSha256: 'short' })))).toThrow(/descriptorSha256/);
  });

  it('store locations', () => {
    expect(parseStoreUrl('s3://bucket/a/b')).toEqual({ bucket: 'bucket', prefix: 'a/b/' });
    expect(parseStoreUrl('s3://bucket/a//b/')).toEqual({ bucket: 'bucket', prefix: 'a/b/' });
    expect(parseStoreUrl('s3://bucket')).toEqual({ bucket: 'bucket', prefix: '' });
    for (const bad of ['s3://', 'http://bucket/x', 's3://Bucket/x', 's3://ab/x', 's3://bucket/x?y'])
      expect(() => parseStoreUrl(bad), bad).toThrow(expect.objectContaining({ code: 'E_STORE_URL' }));
  });
});
