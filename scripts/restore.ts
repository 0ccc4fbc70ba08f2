// npm run restore -- <file>: makes the embedded database of DATA_DIR (default ./data) the one saved in
// <file> by npm run backup. The server must be stopped. A database already there is kept beside it, in
// pgdata.before-restore-<time>, and removed by nobody but the operator.
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { acquireDirectoryLock } from '../src/db/lock.js';
import { StartupError } from '../src/core/startup-error.js';

async function restore(dataDir: string, file: string): Promise<string | undefined> {
  const image = new Blob([readFileSync(file)], { type: 'application/x-gzip' });
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDirectoryLock(dataDir);
  try {
    const pgdata = join(dataDir, 'pgdata');
    let kept: string | undefined;
    if (existsSync(pgdata)) renameSync(pgdata, (kept = `${pgdata}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`));
    const database = await PGlite.create({ dataDir: pgdata, loadDataDir: image });
    await database.query('select 1');
    await database.close();
    return kept;
  } finally {
    lock.release();
  }
}

const [file] = process.argv.slice(2);
const dataDir = process.env.DATA_DIR || './data';
if (file === undefined) {
  console.error('Usage: npm run restore -- <file>   (DATA_DIR names the data directory; the server must be stopped)');
  process.exit(2);
}
try {
  const kept = await restore(dataDir, file);
  console.log(`Restored ${file} into ${dataDir}.${kept ? ` The database that was there is kept in ${kept}.` : ''}`);
} catch (error) {
  console.error(error instanceof StartupError ? `${error.message} A restore needs the server stopped.` : String(error));
  process.exit(1);
}
