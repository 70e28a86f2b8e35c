import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestRawFiles } from './raw-file.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('digestRawFiles', () => {
  it('gives each present file its size and the SHA-256 of all its bytes, across chunk boundaries and for an empty file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omm-digest-'));
    // songs.csv spans three and a bit read chunks (1 MiB each), with a different byte at every position mod 251.
    const songs = Buffer.alloc(3 * 2 ** 20 + 12_345);
    for (let i = 0; i < songs.length; i++) songs[i] = (i * 7 + (i >>> 20)) % 251;
    const albums = Buffer.alloc(2 ** 20); // exactly one chunk
    albums.fill('a');
    writeFileSync(join(dir, 'songs.csv'), songs);
    writeFileSync(join(dir, 'albums.csv'), albums);
    writeFileSync(join(dir, 'artists.csv'), '');
    const digests = await digestRawFiles(dir);
    expect(digests.get('songs')).toEqual({ bytes: songs.length, sha256: sha256(songs) });
    expect(digests.get('albums')).toEqual({ bytes: albums.length, sha256: sha256(albums) });
    expect(digests.get('artists')).toEqual({ bytes: 0, sha256: sha256(Buffer.alloc(0)) });
    expect([...digests.keys()].sort()).toEqual(['albums', 'artists', 'songs']);
  });
});
