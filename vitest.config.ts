import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at once on this machine's and CI's two cores (vitest's default is one fewer than
    // the cores: one here). Most files wait on the servers, compiles and browsers they start, and
    // a second file fills that time.
    maxWorkers: 2,
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
