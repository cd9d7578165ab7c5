import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['tests/helpers/temporary-folder.ts'],
    // Two files at once at least: Vitest's default, one less than the cores, is one on a 2-core machine, where
    // the rebuild test's four minutes would otherwise wait for every other file.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
