// npm run backup / npm run restore: a stopped server's embedded database saved, restored into another
// DATA_DIR, and served from there with every record as it was; refused while a server holds DATA_DIR.
import { spawn } from 'node:child_process';

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { templateDataDir } from '../helpers/databases.js';
import { compiled } from '../helpers/process-build.js';
import { killLeftoverServers, signUpOver, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
afterAll(killLeftoverServers);

function script(name: 'backup' | 'restore', file: string, dataDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [compiled(`scripts/${name}.ts`), file], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

async function stop(server: ServerProcess) {
  server.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
}

const readAll = async (url: string, key: string) => {
  const farms = await fetch(`${url}/api/farms?limit=200`, { headers: { 'x-api-key': key } });
  expect(farms.status).toBe(200);
  return farms.json();
};

describe('backup and restore', { timeout: 300_000 }, () => {
  it('restores a backup into a new DATA_DIR with every record, and refuses while the server runs', async () => {
    const dataDir = await templateDataDir();
    const file = join(tempDir('akker-backup-'), 'akker.tar.gz');
    const first = await startServerProcess({ DATA_DIR: dataDir });
    const key = await signUpOver(first.url, 'backup@example.org');
    for (let i = 0; i < 12; i++) {
      const created = await fetch(`${first.url}/api/farms`, {
        method: 'POST',
        body: JSON.stringify({ b_name_farm: `Farm ${i}` }),
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      });
      expect(created.status).toBe(201);
    }
    const before = await readAll(first.url, key);

    const refused = await script('backup', file, dataDir);
    expect(refused.code).toBe(1);
    expect(refused.output.trim()).toMatch(/is in use by another Akker process .* A backup needs the server stopped\.$/);
    await stop(first);

    const saved = await script('backup', file, dataDir);
    expect(saved.output).toContain(`Backed up ${dataDir} to ${file}.`);
    expect(saved.code).toBe(0);

    const restoredDir = tempDir('akker-restored-');
    const restored = await script('restore', file, restoredDir);
    expect(restored.output).toContain(`Restored ${file} into ${restoredDir}.`);
    expect(restored.code).toBe(0);

    const second = await startServerProcess({ DATA_DIR: restoredDir });
    try {
      expect(await readAll(second.url, key)).toEqual(before);
    } finally {
      await stop(second);
    }
  });
});
