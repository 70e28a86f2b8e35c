import { describe, expect, it } from 'vitest';
import { ImportProgress } from './import-progress.js';

/** A stream that says it is a terminal and keeps what is written to it. */
const terminal = (isTTY: boolean) => {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream, written };
};

describe('ImportProgress', () => {
  it('draws one line with a bar, units, MiB and rate on a terminal, and clears it at the end', async () => {
    const { stream, written } = terminal(true);
    const progress = new ImportProgress('DDEX', 64 * 1048576, stream);
    await new Promise((r) => setTimeout(r, 110));
    for (let i = 0; i < 64; i++) progress.add(512 * 1024);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\r\x1b\[2KDDEX \[##########\.{10}\] 50% 64 read, 32 MiB, [\d,]+\/s$/);
    progress.phase('writing raw CSV in id order');
    progress.done();
    expect(written.slice(1)).toEqual(['\r\x1b[2KDDEX: writing raw CSV in id order', '\r\x1b[2K']);
  });

  it('writes nothing when the stream is not a terminal (logs and CI stay clean)', () => {
    const { stream, written } = terminal(false);
    const progress = new ImportProgress('DDEX', 100, stream);
    for (let i = 0; i < 1000; i++) progress.add(1);
    progress.phase('writing');
    progress.done();
    expect(written).toEqual([]);
  });
});
