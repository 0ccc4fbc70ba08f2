// Start-up as an operator meets it: a reason not to start is one line saying what to do, exit code 1;
// and ioredis is not loaded at all unless REDIS_URL is set.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { templateDataDir } from '../helpers/databases.js';
import { compiled, compiledUrl } from '../helpers/process-build.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Node with `args`, on the run's compiled code (process-build.ts). */
function run(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The server refused to start with exactly one line on stderr, no stack, matching `pattern`. */
async function expectRefusal(env: Record<string, string>, pattern: RegExp) {
  const { code, stdout, stderr } = await run([compiled('src/server.ts')], env);
  expect(code).toBe(1);
  expect(stdout).not.toContain('Akker is listening');
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

const postgres = process.env.TEST_DATABASE_URL;

describe('start-up errors', { timeout: 120_000 }, () => {
  it.skipIf(!postgres)('names a PostgreSQL database that does not exist and how to create it', async () => {
    const url = new URL(postgres!);
    url.pathname = '/akker_no_such_database';
    await expectRefusal(
      { DATABASE_URL: url.toString() },
      /^The database "akker_no_such_database" does not exist on the PostgreSQL server at .+: create it \(createdb akker_no_such_database\)/,
    );
  });

  it('names a PostgreSQL server that is unreachable, without its password', async () => {
    await expectRefusal(
      { DATABASE_URL: 'postgres://akker:s3cret@127.0.0.1:1/akker' },
      /^The PostgreSQL server at 127\.0\.0\.1:1 is unreachable \(ECONNREFUSED\): start it, or correct .*DATABASE_URL \(postgres:\/\/akker:\*\*\*@127\.0\.0\.1:1\/akker\)\.$/,
    );
  });

  it('names a Redis that does not answer', async () => {
    await expectRefusal(
      { DATA_DIR: await templateDataDir(), REDIS_URL: 'redis://127.0.0.1:1' },
      /^Redis at redis:\/\/127\.0\.0\.1:1 does not answer \(ECONNREFUSED\): start it, correct REDIS_URL, or unset REDIS_URL/,
    );
  });

  it('names the process that holds the DATA_DIR', async () => {
    const dataDir = await templateDataDir();
    writeFileSync(join(dataDir, 'akker.lock'), String(process.pid));
    await expectRefusal(
      { DATA_DIR: dataDir },
      new RegExp(`^The data directory .* is in use by another Akker process \\(pid ${process.pid}\\)`),
    );
  });

  it('names an invalid setting', async () => {
    await expectRefusal({ TRUST_PROXY: 'proxy.example' }, /^Invalid configuration: TRUST_PROXY: /);
  });
});

describe('ioredis', { timeout: 120_000 }, () => {
  // The app with a real embedded database answers a request; then: is ioredis among the loaded modules?
  const script = `
    import { createRequire } from 'node:module';
    import { readFileSync } from 'node:fs';
    const { createApp, createDeps } = await import('${compiledUrl('src/app/app.ts')}');
    const { loadConfig } = await import('${compiledUrl('src/core/config.ts')}');
    const { pgliteHandle } = await import('${compiledUrl('src/db/client.ts')}');
    const { PgliteThread } = await import('${compiledUrl('src/db/pglite-thread.ts')}');
    const database = pgliteHandle(await PgliteThread.start({ loadDataDir: new Blob([readFileSync(process.env.TEMPLATE)]) }));
    const deps = createDeps(loadConfig({ DATA_DIR: 'memory://', REDIS_URL: process.env.REDIS_URL, LOG_REQUESTS: 'false' }), database);
    const status = (await createApp(deps).request('/health')).status;
    await deps.rateLimits.close();
    await database.close();
    const cache = createRequire(process.cwd() + '/').cache;
    console.log(JSON.stringify({ status, ioredis: Object.keys(cache).some((path) => path.includes('/node_modules/ioredis/')) }));
  `;
  const loaded = async (redisUrl: string) => {
    const { stdout, stderr } = await run(['--input-type=module', '-e', script], {
      REDIS_URL: redisUrl,
      TEMPLATE: inject('pgliteTemplate'),
    });
    const line = stdout.trim().split('\n').pop() ?? '';
    if (!line.startsWith('{')) throw new Error(`no answer from the script: ${stderr}`);
    return JSON.parse(line) as { status: number; ioredis: boolean };
  };

  it('is not loaded without REDIS_URL, and is with it', async () => {
    expect(await loaded('')).toEqual({ status: 200, ioredis: false });
    expect(await loaded('redis://127.0.0.1:1')).toEqual({ status: 200, ioredis: true });
  });
});
