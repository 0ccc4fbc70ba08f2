// GET /health/ready: 200 only while the database answers a statement, 503 not-ready otherwise; it says
// whether the rate limits are in Redis. Not behind a key or a rate limit.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { appOn, expectProblem, signUpWithKey, call, type TestApp } from '../helpers/app.js';
import { openTestPglite, openTestPostgres } from '../helpers/databases.js';

const redisUrl = process.env.TEST_REDIS_URL;
// One embedded database for the apps of the tests that leave their database open.
let shared: DatabaseHandle;
beforeAll(async () => {
  shared = await openTestPglite();
});
afterAll(() => shared?.close());

const opened: TestApp[] = [];
afterEach(async () => {
  for (const test of opened.splice(0)) {
    await test.deps.rateLimits.close();
    if (test.database !== shared) await test.close().catch(() => {});
  }
});

/** An app on the shared database, its rate limits closed after the test. */
function sharedApp(env: Record<string, string> = {}): TestApp {
  const test = appOn(shared, env);
  opened.push(test);
  return test;
}

const ready = (test: TestApp) => test.app.request('/health/ready');

// Generous: a fresh embedded database takes seconds to open on a loaded machine.
describe('readiness', { timeout: 120_000 }, () => {
  it('answers 200 with the database ok and Redis not configured, without a key, past any rate limit', async () => {
    const test = sharedApp({ RATE_LIMIT_GENERAL: '1' });
    for (let i = 0; i < 3; i++) {
      const response = await ready(test);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ status: 'ready', database: 'ok', redis: 'not configured' });
    }
    expect((await test.app.request('/health')).status).toBe(200);
  });

  it('refuses other methods than GET and HEAD with 405', async () => {
    const test = sharedApp();
    const response = await test.app.request('/health/ready', { method: 'POST' });
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    await expectProblem(response, 405, 'method-not-allowed');
  });

  it('answers 503 not-ready once the embedded database is closed, and 200 on another', async () => {
    const test = appOn(await openTestPglite());
    expect((await ready(test)).status).toBe(200);
    await test.database.close();
    await expectProblem(await ready(test), 503, 'not-ready');
    // Liveness says nothing of the database.
    expect((await test.app.request('/health')).status).toBe(200);

    const fresh = sharedApp();
    expect((await ready(fresh)).status).toBe(200);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'answers 503 while PostgreSQL refuses its connections, and 200 again once it takes them',
    async () => {
      const database = await openTestPostgres();
      const test = appOn(database);
      opened.push(test);
      const name = new URL(database.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        expect((await ready(test)).status).toBe(200);
        await admin.query(`alter database ${name} with allow_connections false`);
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
        await expectProblem(await ready(test), 503, 'not-ready');
        await admin.query(`alter database ${name} with allow_connections true`);
        expect((await ready(test)).status).toBe(200);
      } finally {
        await admin.query(`alter database ${name} with allow_connections true`);
        await admin.end();
      }
    },
  );

  it.skipIf(!redisUrl)(
    'says "redis" while the rate limits are kept in Redis, and "memory-fallback" when Redis does not answer',
    async () => {
      const inRedis = sharedApp({ REDIS_URL: redisUrl!, RATE_LIMIT_REDIS_PREFIX: `akker:test:ready:${Date.now()}:` });
      const { key } = await signUpWithKey(inRedis.app);
      // A counted request waits for Redis's first connection.
      expect((await call(inRedis.app, key, 'GET', '/api/farms')).status).toBe(200);
      expect(await (await ready(inRedis)).json()).toEqual({ status: 'ready', database: 'ok', redis: 'redis' });

      const unreachable = sharedApp({ REDIS_URL: 'redis://127.0.0.1:1' });
      const other = await signUpWithKey(unreachable.app);
      expect((await call(unreachable.app, other.key, 'GET', '/api/farms')).status).toBe(200);
      expect(await (await ready(unreachable)).json()).toEqual({ status: 'ready', database: 'ok', redis: 'memory-fallback' });
    },
  );
});
