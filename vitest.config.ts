import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Three files at a time on two cores: most test files spend much of their time waiting on a server
    // process, a socket or PostgreSQL. A PGlite database costs ~400 MB, well within the machine's memory.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
