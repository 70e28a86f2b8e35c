import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WriteBatch } from './write-batch.js';

/** What WriteBatch uses of a socket, recording writes (copied) and ends in one log. */
function fakeSocket(name: string, log: string[], keeps = false) {
  const socket = {
    destroyed: false,
    writableLength: 0,
    write(bytes: Buffer) {
      log.push(`${name}:${bytes.toString()}`);
      if (keeps) socket.writableLength += bytes.length;
      return true;
    },
    end() {
      log.push(`${name}:end`);
    },
  };
  return socket as typeof socket & Socket;
}

const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

function queue(batch: WriteBatch, socket: Socket, text: string, close = false): Buffer {
  const bytes = batch.room(Buffer.byteLength(text));
  bytes.write(text);
  batch.queue(socket, bytes, close);
  return bytes;
}

describe('WriteBatch (the fast core writes the responses of a turn together)', () => {
  it('writes nothing until the turn ends, then each response to its socket in order', async () => {
    const log: string[] = [];
    const batch = new WriteBatch();
    const a = fakeSocket('a', log);
    const b = fakeSocket('b', log);
    queue(batch, a, 'one');
    queue(batch, b, 'two');
    queue(batch, a, 'three', true);
    expect(log).toEqual([]);
    await turnEnd();
    expect(log).toEqual(['a:one', 'b:two', 'a:three', 'a:end']);
    // The next turn starts a batch of its own.
    queue(batch, b, 'four');
    await turnEnd();
    expect(log.at(-1)).toBe('b:four');
  });

  it('writes the queued responses first when asked (a hand-over, a drain) or when a large one comes', async () => {
    const log: string[] = [];
    const batch = new WriteBatch();
    const a = fakeSocket('a', log);
    queue(batch, a, 'small');
    batch.flush();
    expect(log).toEqual(['a:small']);
    queue(batch, a, 'before');
    const large = 'x'.repeat(100 * 1024);
    queue(batch, a, large);
    expect(log).toEqual(['a:small', 'a:before', `a:${large}`]);
    await turnEnd();
    expect(log).toHaveLength(3);
  });

  it('fills a full arena out first, and skips a socket destroyed meanwhile', async () => {
    const log: string[] = [];
    const batch = new WriteBatch();
    const a = fakeSocket('a', log);
    const gone = fakeSocket('gone', log);
    const part = 'y'.repeat(60 * 1024);
    for (let i = 0; i < 4; i++) queue(batch, i === 2 ? gone : a, `${i}${part}`);
    gone.destroyed = true;
    expect(log).toEqual([]);
    // 256 KiB hold four: the fifth writes the first four out.
    queue(batch, a, `4${part}`);
    expect(log.map((l) => l.slice(0, 3))).toEqual(['a:0', 'a:1', 'a:3']);
    await turnEnd();
    expect(log.map((l) => l.slice(0, 3))).toEqual(['a:0', 'a:1', 'a:3', 'a:4']);
  });

  it('never reuses bytes a socket kept: the next turn lays its responses out elsewhere', async () => {
    const log: string[] = [];
    const batch = new WriteBatch();
    const slow = fakeSocket('slow', log, true);
    const kept = queue(batch, slow, 'kept by the socket');
    await turnEnd();
    const next = queue(batch, fakeSocket('fast', log), 'x'.repeat(64));
    expect(kept.toString()).toBe('kept by the socket');
    expect(next.buffer).not.toBe(kept.buffer);
    await turnEnd();
    // A socket that took everything leaves the arena to be reused.
    const again = queue(batch, fakeSocket('fast', log), 'z');
    expect(again.buffer).toBe(next.buffer);
  });

  it('ends a socket after what is queued for it (a FIN answered), or at once when nothing is queued', async () => {
    const log: string[] = [];
    const batch = new WriteBatch();
    const a = fakeSocket('a', log);
    const b = fakeSocket('b', log);
    queue(batch, a, 'last answer');
    batch.endAfter(a);
    queue(batch, b, 'other');
    expect(log).toEqual([]);
    await turnEnd();
    expect(log).toEqual(['a:last answer', 'a:end', 'b:other']);
    batch.endAfter(b);
    expect(log.at(-1)).toBe('b:end');
  });
});
