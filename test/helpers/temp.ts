// Every file and folder a test writes lives in the run's own folder (global-setup.ts), which is removed
// when the run ends: a test that fails or forgets to clean up leaves nothing in the system's temp folder.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    testRunDir: string;
  }
}

/** A new, empty folder in the run's folder, its name starting with `prefix`. */
export const tempDir = (prefix: string): string => mkdtempSync(join(inject('testRunDir'), prefix));
