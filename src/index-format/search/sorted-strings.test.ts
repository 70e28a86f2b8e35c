import { describe, expect, it } from 'vitest';
import { firstFalse } from './sorted-strings.js';

const SAMPLE_STEP = 32;

describe('firstFalse', () => {
  it('finds the first false position from anywhere it is told the tests are true below, as a scan does', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let round = 0; round < 3000; round++) {
      const length = Math.floor(next() * 3000);
      const answer = Math.floor(next() * (length + 1));
      const trueBelow = Math.floor(next() * (answer + 1));
      let probes = 0;
      const test = (p: number) => {
        probes++;
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThan(length);
        return p < answer;
      };
      const sampled = (j: number) => test(j * SAMPLE_STEP);
      expect(firstFalse(length, test, sampled, trueBelow)).toBe(answer);
      expect(firstFalse(length, test, sampled)).toBe(answer);
    }
  });

  it('looks at a few samples past the known-true positions when the answer is near them', () => {
    const length = 10_000_000;
    let probes = 0;
    const test = (p: number) => (probes++, p < 5_000_040);
    const from = 5_000_000;
    expect(firstFalse(length, test, (j) => test(j * SAMPLE_STEP), from)).toBe(5_000_040);
    const galloped = probes;
    probes = 0;
    expect(firstFalse(length, test, (j) => test(j * SAMPLE_STEP))).toBe(5_000_040);
    expect(galloped).toBeLessThan(12);
    expect(probes).toBeGreaterThan(20);
  });
});
