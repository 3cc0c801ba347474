import { defineConfig } from 'vitest/config';

// One config for the widget build (issue 4 fills in the entries) and for Vitest.
export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'widget/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
