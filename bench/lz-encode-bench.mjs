#!/usr/bin/env node
// omm-lz encoding, JavaScript (LzEncoder) against C (native/lz.c), on a snapshot's own records:
// CPU µs per record and bytes per record (which must agree), alternating passes.
// Usage: node bench/lz-encode-bench.mjs SNAPSHOT [--table view-v1-song] [--records 200000]
// Needs `npm run build` and the native addon.
import { arg, numberArg } from './cli-args.mjs';
import { Snapshot } from '../dist/index-format/snapshot.js';
import { LzEncoder } from '../dist/index-format/codec/lz-codec.js';
import { createRecordEncoder, nativeLzEncoderAvailable } from '../dist/index-format/codec/lz-encoder.js';
import { RECORD_DICTIONARY_BYTES } from '../dist/index-format/tables/record-table-writer.js';

if (!nativeLzEncoderAvailable()) throw new Error('the native addon (with lz.c) is not built: npm install');
const snapshot = Snapshot.open(process.argv[2]);
const table = snapshot.records(arg('table', 'view-v1-song'));
const count = Math.min(numberArg('records', '200000'), table.count);
const records = Array.from({ length: count }, (_, i) => Buffer.from(table.raw(i)));
const dictionary = Buffer.concat(records.slice(0, 1000)).subarray(0, RECORD_DICTIONARY_BYTES);
for (let pass = 0; pass < 3; pass++) {
  /** @type {[string, { encode(record: Uint8Array): Uint8Array }][]} */
  const encoders = [
    ['javascript', new LzEncoder(dictionary)],
    ['native', createRecordEncoder(dictionary)],
  ];
  for (const [name, encoder] of encoders) {
    const start = process.cpuUsage();
    let bytes = 0;
    for (const r of records) bytes += encoder.encode(r).length;
    const used = process.cpuUsage(start);
    console.log(`${name.padEnd(10)} ${((used.user + used.system) / count).toFixed(2)} µs/record, ${(bytes / count).toFixed(1)} bytes/record`);
  }
}
