// The embedded database belongs to one process: a second one on the same DATA_DIR refuses to start.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDirectoryLock, DataDirLockedError } from '../../src/db/lock.js';
import { killLeftoverServers, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const lockDir = () => tempDir('akker-lock-');
afterAll(killLeftoverServers);

describe('data directory lock', () => {
  // Each start waits for the server's own ready line (or its exit), bounded by the helper's start timeout;
  // a first start on a fresh directory takes half a minute on a loaded machine. Fresh on purpose, and
  // from source as `npm start` runs it: the other server processes of the suite run the compiled code on
  // a copy of the migrated template, so this is the suite's test of a first start (the database created
  // in a process of its own, migrated, served) by `npm start`.
  it('refuses a second process on the same DATA_DIR with a clear message, and the first keeps serving', async () => {
    const dataDir = lockDir();
    const first = await startServerProcess({ DATA_DIR: dataDir }, { fromSource: true });
    try {
      await expect(startServerProcess({ DATA_DIR: dataDir })).rejects.toThrow(
        `The data directory ${dataDir} is in use by another Akker process (pid ${first.pid})`,
      );

      const health = await fetch(`${first.url}/health`);
      expect(health.status).toBe(200);
      const signUp = await fetch(`${first.url}/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'lock@example.org', password: 'long enough', name: 'L' }),
      });
      expect(signUp.status).toBe(201);
    } finally {
      first.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
    }
    expect(existsSync(join(dataDir, 'akker.lock'))).toBe(false);
  }, 180_000);

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = lockDir();
    writeFileSync(join(dir, 'akker.lock'), '999999999');
    const lock = acquireDirectoryLock(dir);
    lock.release();
    expect(existsSync(join(dir, 'akker.lock'))).toBe(false);
  });

  it('refuses a lock held by a running process', () => {
    const dir = lockDir();
    writeFileSync(join(dir, 'akker.lock'), String(process.ppid));
    expect(() => acquireDirectoryLock(dir)).toThrow(DataDirLockedError);
  });
});
