// The embedded database belongs to one process: a second one on the same DATA_DIR refuses to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDirectoryLock, DataDirLockedError } from '../../src/db/lock.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'akker-lock-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function startServer(dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const output = (child: ChildProcess) => {
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  return () => text;
};

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('data directory lock', () => {
  it('refuses a second process on the same DATA_DIR with a clear message, and the first keeps serving', async () => {
    const dataDir = tempDir();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const first = startServer(dataDir, port);
    const firstOutput = output(first);
    try {
      for (let i = 0; i < 200 && !firstOutput().includes('listening'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(firstOutput()).toContain('Akker is listening');

      const second = startServer(dataDir, port + 1);
      const secondOutput = output(second);
      expect(await exited(second)).toBe(1);
      expect(secondOutput()).toContain(`The data directory ${dataDir} is in use by another Akker process (pid ${first.pid})`);

      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      const signUp = await fetch(`http://127.0.0.1:${port}/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'lock@example.org', password: 'long enough', name: 'L' }),
      });
      expect(signUp.status).toBe(201);
    } finally {
      first.kill('SIGTERM');
      expect(await exited(first)).toBe(0);
    }
    expect(existsSync(join(dataDir, 'akker.lock'))).toBe(false);
  }, 60_000);

  it('takes over a lock left by a process that no longer runs', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'akker.lock'), '999999999');
    const lock = acquireDirectoryLock(dir);
    lock.release();
    expect(existsSync(join(dir, 'akker.lock'))).toBe(false);
  });

  it('refuses a lock held by a running process', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'akker.lock'), String(process.ppid));
    expect(() => acquireDirectoryLock(dir)).toThrow(DataDirLockedError);
  });
});
