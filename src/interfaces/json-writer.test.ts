import { describe, expect, it } from 'vitest';
import { JsonWriter } from './json-writer.js';

const reference = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null');

describe('JsonWriter', () => {
  const writer = new JsonWriter();
  const same = (value: unknown) => expect(Buffer.from(writer.bytes(value)).equals(reference(value)), JSON.stringify(value)).toBe(true);

  it('writes what JSON.stringify writes, for every kind of value', () => {
    for (const value of [
      null,
      true,
      false,
      0,
      -0,
      7,
      10,
      99,
      100,
      12345,
      2 ** 53 - 1,
      2 ** 53,
      -1,
      -123456,
      1.5,
      -2.25,
      1e21,
      1e-7,
      0.1 + 0.2,
      Number.NaN,
      Infinity,
      -Infinity,
      '',
      'plain',
      'quote " backslash \\ slash /',
      'controls \b\f\n\r\t \u0000 \u0001 \u001f \u007f',
      'é ß Ü 坂本龍一 😀 \u2028\u2029',
      'lone \ud800 high',
      'lone \udc00 low',
      'reversed \udc00\ud800',
      'end \ud83d',
      '\ud83d\ude00\ud83d',
      [],
      [1, 'a', null, undefined, () => 1, Symbol('s'), [2, [3]]],
      {},
      { a: 1, b: undefined, c: () => 1, d: Symbol('x'), e: { f: [true] } },
      { 2: 'two', 1: 'one', b: 'b', a: 'a' },
      { 'key "quoted"': 1, ключ: 2, '': 3 },
      new Date(0),
      { toJSON: () => 'custom' },
      { nested: { toJSON: () => [1] } },
      Object.assign(Object.create(null), { x: 1 }),
      new (class Point {
        x = 1;
        y = 2;
      })(),
      { big: [new Map([[1, 2]]), new Set([1])] },
    ])
      same(value);
    expect(Buffer.from(writer.bytes(undefined)).toString()).toBe('null');
  });

  it('writes what JSON.stringify writes for random strings and nested values', () => {
    let seed = 42;
    const next = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const units = [
      0x00, 0x09, 0x0a, 0x1f, 0x20, 0x22, 0x41, 0x5c, 0x7e, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x2028, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd,
      0xffff,
    ];
    const randomString = () => String.fromCharCode(...Array.from({ length: next(40) }, () => (next(3) === 0 ? next(0x10000) : units[next(units.length)])));
    const randomValue = (depth: number): unknown => {
      switch (next(depth > 3 ? 4 : 7)) {
        case 0:
          return randomString();
        case 1:
          return next(2) === 0 ? next(1 << 30) : (next(2000000) - 1000000) / 7;
        case 2:
          return next(2) === 0;
        case 3:
          return null;
        case 4:
          return Array.from({ length: next(5) }, () => randomValue(depth + 1));
        default:
          return Object.fromEntries(Array.from({ length: next(6) }, () => [randomString(), randomValue(depth + 1)]));
      }
    };
    for (let n = 0; n < 5000; n++) same(randomValue(0));
  });

  it('grows its buffer for large values and stays correct after', () => {
    const big = { text: 'x'.repeat(200_000), list: Array.from({ length: 20_000 }, (_, i) => i) };
    same(big);
    same({ small: 1 });
  });
});
