import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARD_KINDS } from '../constants.js';
import { nativeMmapAvailable } from './mapped-file.js';
import { openShard, type Shard } from './shard-reader.js';
import { ShardWriter } from './shard-writer.js';

// A long range verified on its first use (a search section) is read ahead a megabyte at a time:
// every page of it is still checked, wherever in the range a damaged one lies.

const dir = mkdtempSync(join(tmpdir(), 'omm-shard-reader-'));
const opened: Shard[] = [];
afterAll(() => {
  for (const s of opened) s.close();
  rmSync(dir, { recursive: true, force: true });
});
const modes = nativeMmapAvailable() ? (['pread', 'mmap'] as const) : (['pread'] as const);
const PAGE = 4096;
const SECTION = 3 * 2 ** 20 + 5000; // three read-ahead steps and a part

let files = 0;
/** A shard with one long section, with the byte at `flipAt` of the section flipped on disk (when given). */
function shardWithSection(flipAt?: number): { path: string; body: Buffer } {
  const path = join(dir, `s${files++}.blob`);
  const body = Buffer.alloc(SECTION);
  for (let i = 0; i < SECTION; i++) body[i] = (i * 31 + (i >>> 12)) & 0xff;
  const writer = new ShardWriter(path, SHARD_KINDS.blob, 'b1');
  writer.section('long', body);
  writer.finish({});
  if (flipAt !== undefined) {
    const fd = openSync(path, 'r+');
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, PAGE + flipAt);
    byte[0] ^= 0x10;
    writeSync(fd, byte, 0, 1, PAGE + flipAt);
    closeSync(fd);
  }
  return { path, body };
}

function open(path: string, mode: 'pread' | 'mmap'): Shard {
  const shard = openShard(path, SHARD_KINDS.blob, { mode, advice: 'random' });
  opened.push(shard);
  return shard;
}

describe.each(modes)('verifying a long range (%s)', (mode) => {
  it('reads it whole and right', () => {
    const { path, body } = shardWithSection();
    const shard = open(path, mode);
    const { start, length } = shard.section('long');
    expect(Buffer.from(shard.bytes(start, length)).equals(body)).toBe(true);
  });

  // A damaged page in the first step, in a later step, in the last partial step, and one past a
  // run of pages verified before (the step then starts at the first unverified page).
  for (const at of [100, 2 * 2 ** 20 + 123, SECTION - 10]) {
    it(`refuses it when the page holding byte ${at} is damaged`, () => {
      const shard = open(shardWithSection(at).path, mode);
      const { start, length } = shard.section('long');
      expect(() => shard.bytes(start, length)).toThrow(expect.objectContaining({ code: 'E_CHECKSUM' }));
    });
  }

  it('checks the rest of a range whose first pages were verified before', () => {
    const at = 2 ** 20 + 3 * PAGE + 7;
    const shard = open(shardWithSection(at).path, mode);
    const { start } = shard.section('long');
    shard.bytes(start, 2 ** 20 + PAGE); // the first step and a page: all sound
    expect(() => shard.bytes(start, SECTION)).toThrow(expect.objectContaining({ code: 'E_CHECKSUM' }));
  });
});
