import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./vitest.setup-build.ts'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['main/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts', 'bench/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/**/*.test.tsx', 'renderer/**/*.test.ts'],
          setupFiles: ['./renderer/src/testing/api-contract-setup.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
