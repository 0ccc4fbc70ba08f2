// PGlite has no multi-process locking: two processes on one folder corrupt it.
// The process that holds `akker.lock` (created with O_EXCL, holding its pid) owns the folder.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../core/startup-error.js';

export class DataDirLockedError extends StartupError {}

export interface DirectoryLock {
  release(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export function acquireDirectoryLock(dir: string): DirectoryLock {
  const path = join(dir, 'akker.lock');
  if (!tryCreate(path)) {
    const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
      throw new DataDirLockedError(
        `The data directory ${dir} is in use by another Akker process (pid ${holder}). ` +
          'Stop that process, or start this one with another DATA_DIR.',
      );
    }
    // The holder is gone (it crashed or was killed): the lock is stale.
    unlinkSync(path);
    if (!tryCreate(path)) throw new DataDirLockedError(`Another process took the lock on ${dir} at the same moment.`);
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    try {
      if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  };
  process.once('exit', release);
  return { release };
}
