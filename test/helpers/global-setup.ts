// Once per run: the run's own temporary folder (temp.ts), removed when the run ends; in it, one PGlite
// database migrated and dumped, of which every test file starts from a copy; and the code compiled for
// the tests that start Akker as a process (process-build.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migratePglite } from '../../src/db/migrate.js';
import { buildForProcesses } from './process-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'akker-tests-'));
  project.provide('testRunDir', dir);
  const client = await PGlite.create();
  await migratePglite(client);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = join(dir, 'template.tar');
  writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  const processBuild = await buildForProcesses(fileURLToPath(new URL('../..', import.meta.url)));
  project.provide('processBuild', processBuild.dir);
  // In watch mode the tests rerun after a change of the code: the processes they start must run it too.
  project.onTestsRerun(() => processBuild.rebuild());
  if (!process.env.TEST_DATABASE_URL) {
    console.log(
      '[akker tests] TEST_DATABASE_URL is not set: storage tests run on the embedded database only; the PostgreSQL variants are skipped.',
    );
  }
  return () => {
    rmSync(dir, { recursive: true, force: true });
    processBuild.remove();
  };
}
