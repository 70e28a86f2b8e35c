#!/usr/bin/env node
// The ceiling: a bare node:http server answering every request with the same ~600-byte JSON
// body (a song resource's size). Nothing a catalog server does can be faster on this machine.
// With a byte count, the body is padded to that size: the floor for answers that large (a page
// of search results).
// With `shaped`, each answer also carries the headers ours sends (a fresh X-Request-Id, ETag,
// Cache-Control, Vary): what node:http costs for our response's shape with no work behind it.
// Usage: node bench/peers/ceiling-server.mjs <port> [body bytes] [shaped]
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

let body = Buffer.from(
  JSON.stringify({
    data: {
      id: '1',
      type: 'song',
      attributes: {
        name: 'For Those About To Rock (We Salute You)',
        albumName: 'For Those About To Rock We Salute You',
        artistName: 'AC/DC',
        isrc: 'USAT20000001',
        artworkUrl: 'https://img.example.com/covers/0001/{w}x{h}.jpg',
        trackNumber: 1,
        discNumber: 1,
        genres: ['Rock', 'Hard Rock'],
        releaseDate: '1981-11-23',
        durationMs: 343719,
        files: {
          preferred: { id: 'f1', lossless: false, mimeType: 'audio/mpeg', codec: 'mp3', bitrateKbps: 320, streamUrl: 'https://cdn.example.com/f1.mp3' },
          alternatives: [],
        },
      },
    },
  }),
);
const wanted = Number(process.argv[3] ?? 0);
if (wanted > body.length) body = Buffer.from(JSON.stringify({ ...JSON.parse(body.toString()), padding: 'x'.repeat(wanted - body.length - 13) }));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
const shaped = process.argv[4] === 'shaped';
createServer((_req, res) => {
  if (shaped) {
    res.writeHead(200, {
      'x-request-id': randomUUID(),
      etag: '"c812a3d754a6a9a8-1a2b3c4d"',
      'cache-control': 'public, max-age=60',
      vary: 'Accept-Encoding',
      ...headers,
    });
  } else res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.argv[2] ?? 18500), '127.0.0.1', () => process.stderr.write(`ceiling: ${body.length}-byte body\n`));
