import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { memoryLimitBytes } from './memory-limit.js';

describe('the memory this process may use', () => {
  it('is at most the machine memory, and more than nothing', () => {
    const limit = memoryLimitBytes();
    expect(limit).toBeGreaterThan(0);
    expect(limit).toBeLessThanOrEqual(totalmem());
  });
});
