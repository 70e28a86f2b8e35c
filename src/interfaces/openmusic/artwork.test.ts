import { describe, expect, it } from 'vitest';
import { ARTWORK_SIZE, artworkUri } from './artwork.js';

describe('artworkUri', () => {
  it.each([
    [null, null],
    ['https://img.example.com/a.jpg', 'https://img.example.com/a.jpg'],
    ['https://img.example.com/al1/{w}x{h}.jpg', `https://img.example.com/al1/${ARTWORK_SIZE}x${ARTWORK_SIZE}.jpg`],
    ['https://is1.example.com/x.jpg/{w}x{h}bb.jpg?q={w}', `https://is1.example.com/x.jpg/${ARTWORK_SIZE}x${ARTWORK_SIZE}bb.jpg?q=${ARTWORK_SIZE}`],
    ['https://img.example.com/{c}/a.jpg', 'https://img.example.com/%7Bc%7D/a.jpg'], // not ours to fill: encoded
    ['https://img.example.com/Ärzte 1.jpg', 'https://img.example.com/%C3%84rzte%201.jpg'],
    ['https://img.example.com/a%20b%2.jpg', 'https://img.example.com/a%20b%252.jpg'], // an escape kept, a stray % encoded
    ['https://img.example.com/😀.jpg?a=[1]', 'https://img.example.com/%F0%9F%98%80.jpg?a=[1]'],
  ])('%s -> %s', (url, uri) => {
    expect(artworkUri(url)).toBe(uri);
  });
});
