// Migrates one PGlite database for the whole run and dumps it; every test file starts from a copy.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migratePglite } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'akker-template-'));
  const client = await PGlite.create();
  await migratePglite(client);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = join(dir, 'template.tar');
  writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  if (!process.env.TEST_DATABASE_URL) {
    console.log(
      '[akker tests] TEST_DATABASE_URL is not set: storage tests run on the embedded database only; the PostgreSQL variants are skipped.',
    );
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
