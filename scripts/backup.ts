// npm run backup -- <file>: writes the embedded database of DATA_DIR (default ./data) to <file>, a
// gzipped tarball of its files (PGlite's dumpDataDir). The server must be stopped: the lock on DATA_DIR
// says whether one runs, and while it runs its latest writes may still be in its memory only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { acquireDirectoryLock } from '../src/db/lock.js';
import { StartupError } from '../src/core/startup-error.js';

async function backup(dataDir: string, file: string): Promise<void> {
  const lock = acquireDirectoryLock(dataDir);
  try {
    const database = await PGlite.create({ dataDir: join(dataDir, 'pgdata') });
    const dump = await database.dumpDataDir('gzip');
    await database.close();
    writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    lock.release();
  }
}

const [file] = process.argv.slice(2);
const dataDir = process.env.DATA_DIR || './data';
if (file === undefined) {
  console.error('Usage: npm run backup -- <file>   (DATA_DIR names the data directory; the server must be stopped)');
  process.exit(2);
}
try {
  await backup(dataDir, file);
  console.log(`Backed up ${dataDir} to ${file}.`);
} catch (error) {
  console.error(error instanceof StartupError ? `${error.message} A backup needs the server stopped.` : String(error));
  process.exit(1);
}
