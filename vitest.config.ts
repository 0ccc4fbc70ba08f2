import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Three files at a time on two cores: most test files spend much of their time waiting on a server
    // process, a socket or PostgreSQL. A PGlite database costs ~400 MB, well within the machine's memory.
    maxWorkers: 3,
    // A worker runs its files one after another in one module graph: the app's modules are loaded once
    // per worker, not once per file (about a second of CPU each). Every file opens its own databases and
    // servers and closes them in afterAll, so nothing of one file is seen by the next.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
