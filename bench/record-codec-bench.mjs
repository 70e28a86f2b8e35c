#!/usr/bin/env node
// How small one record of a snapshot's tables gets, and what decoding one costs, per encoding
// (issue 19, docs/scale.md "Bytes per song"): stored; deflate-raw level 9 and brotli quality 11
// per record (what could be sent as-is to clients that accept them); deflate-raw with a 32 KiB
// dictionary (the table's first records); omm-lz as the snapshot stores it (the table's first
// 64,000 bytes as dictionary). Decode times are CPU µs per record, the fastest of 5 passes over
// the sample: node:zlib per call, omm-lz's reference decoder (JavaScript) and its WebAssembly one.
// Usage: node bench/record-codec-bench.mjs SNAPSHOT [--tables view-v1-song,songs] [--records 3000]
// Needs `npm run build` (it reads dist/). SNAPSHOT: a snapshot or dist directory.
import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { arg, numberArg, seeded } from './cli-args.mjs';
import { Snapshot } from '../dist/index-format/snapshot.js';
import { LzEncoder, lzDecode, lzDecodedLength } from '../dist/index-format/codec/lz-codec.js';
import { createLzDecoder } from '../dist/index-format/codec/lz-decoder.js';
import { RECORD_DICTIONARY_BYTES } from '../dist/index-format/tables/record-table-writer.js';

const snapshot = Snapshot.open(process.argv[2] ?? 'bench/.data/dist-1000000-1');
const tables = arg('tables', 'view-v1-song,view-om-song,songs,files,lyrics,view-v1-album,view-om-album,albums').split(',');
const n = numberArg('records', '3000');
const brotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

/** Fastest of 5 passes of `f` over every record, CPU µs per record. */
function time(records, f) {
  let best = Infinity;
  for (let pass = 0; pass < 5; pass++) {
    const start = process.cpuUsage();
    for (let i = 0; i < records.length; i++) f(i);
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / records.length);
  }
  return best;
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

console.log(
  '| table | stored | deflate-raw 9 | brotli 11 | deflate-raw 9 + 32 KiB dictionary | omm-lz | µs: inflateRawSync (+dictionary) | brotliDecompressSync | omm-lz JS | omm-lz WebAssembly |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const name of tables) {
  const table = snapshot.records(name);
  const first = [];
  for (let i = 0, bytes = 0; i < table.count && bytes < RECORD_DICTIONARY_BYTES; i++) {
    const r = table.raw(i);
    first.push(r);
    bytes += r.length;
  }
  const dictionary = Buffer.concat(first).subarray(0, RECORD_DICTIONARY_BYTES);
  const zdictionary = dictionary.subarray(0, 32 * 1024);
  const next = seeded(7);
  const records = Array.from({ length: Math.min(n, table.count) }, () => table.raw(Math.floor(next() * table.count)));
  const deflated = records.map((r) => deflateRawSync(r, { level: 9 }));
  const brotlied = records.map((r) => brotliCompressSync(r, brotli));
  const withDictionary = records.map((r) => deflateRawSync(r, { level: 9, dictionary: zdictionary }));
  const encoder = new LzEncoder(dictionary);
  const packed = records.map((r) => Buffer.from(encoder.encode(r)));
  const out = Buffer.alloc(Math.max(...records.map((r) => r.length)));
  const wasm = createLzDecoder(dictionary, out.length);
  for (let i = 0; i < records.length; i++) {
    const length = wasm.decode(packed[i], 0, packed[i].length);
    if (!wasm.output.subarray(wasm.outputAt, wasm.outputAt + length).equals(records[i])) throw new Error(`${name}: record ${i} does not round-trip`);
  }
  const cells = [
    mean(records.map((r) => r.length)),
    mean(deflated.map((b) => b.length)),
    mean(brotlied.map((b) => b.length)),
    mean(withDictionary.map((b) => b.length)),
    mean(packed.map((b) => b.length)),
  ].map((x) => x.toFixed(0));
  const micros = [
    time(records, (i) => inflateRawSync(withDictionary[i], { dictionary: zdictionary })),
    time(records, (i) => brotliDecompressSync(brotlied[i])),
    time(records, (i) => lzDecode(packed[i], 0, packed[i].length, dictionary, out, 0)),
    time(records, (i) => wasm.decodeKnown(packed[i], 0, packed[i].length, lzDecodedLength(packed[i], 0, packed[i].length))),
  ].map((x) => x.toFixed(2));
  console.log(`| ${name} | ${cells.join(' | ')} | ${micros.join(' | ')} |`);
}
snapshot.close();
