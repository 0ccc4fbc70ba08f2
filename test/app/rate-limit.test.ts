// Rate limits: per API key, on a rolling minute, 120 GET, 30 writes, 10 calculations; 429 with
// Retry-After; what counts, in which bucket, and Retry-After. The clock is the test's.
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, createDeps, type App } from '../../src/app/app.js';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { pgliteHandle, queryRows, type DatabaseHandle } from '../../src/db/client.js';
import { writeResponseHeaders } from '../../src/http/response-headers.js';
import type { ApiEnv } from '../../src/http/env.js';
import { problemResponse, type ApiError } from '../../src/http/problem.js';
import { MemoryWindows } from '../../src/rate-limit/memory-windows.js';
import { rateLimit } from '../../src/app/rate-limit.js';
import { ratePolicies } from '../../src/rate-limit/policies.js';
import { FULL_SCOPE } from '../../src/core/principal.js';
import { call, createFarm, expectProblem, signUpWithKey, testConfig, type Account } from '../helpers/app.js';
import { openTestPglite, openTestPostgres, pgliteTemplate } from '../helpers/databases.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
/** The look-up of a key by its hash (a statement planned once): a read of api_keys, nothing else. */
const KEY_LOOK_UP = /^(\/\* planned once \*\/ )?select [^;]* from "?api_keys"? where [^;]*"key_hash" = \$1/i;

interface LimitedApp {
  app: App;
  /** The limiter's clock, in ms; tests move it forward only. */
  clock: { now: number };
  close(): Promise<void>;
}

function limitedApp(database: DatabaseHandle, env: Record<string, string> = {}): LimitedApp {
  const clock = { now: 0 };
  // Sign-ups (one per test, from one address) have a limit and tests of their own.
  const deps = createDeps(testConfig({ SIGNUP_LIMIT_PER_HOUR: '0', ...env }), database, { rateLimits: new MemoryWindows(() => clock.now) });
  return { app: createApp(deps), clock, close: () => database.close() };
}

/** A PGlite database from the test template whose every statement is counted, with its SQL. */
async function instrumentedPglite() {
  const client = await PGlite.create({ loadDataDir: pgliteTemplate() });
  const statements: string[] = [];
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((sql: string, ...rest: unknown[]) => {
    statements.push(sql);
    return (query as (...args: unknown[]) => unknown)(sql, ...rest);
  }) as typeof client.query;
  client.exec = ((sql: string, ...rest: unknown[]) => {
    statements.push(sql);
    return (exec as (...args: unknown[]) => unknown)(sql, ...rest);
  }) as typeof client.exec;
  client.transaction = ((work: unknown) => {
    statements.push('begin');
    return (transaction as (work: unknown) => unknown)(work);
  }) as typeof client.transaction;
  return { database: pgliteHandle(client), statements };
}

/** Resolves once the key's use is recorded: the write runs after the answer, off the request's path. */
async function keyUseRecorded(database: DatabaseHandle, keyId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [key] = await queryRows<{ used: boolean }>(
      database.db,
      sql`select last_used_at is not null as used from api_keys where key_id = ${keyId}`,
    );
    if (key?.used) return;
    if (Date.now() > deadline) throw new Error(`the use of key ${keyId} was not recorded within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const farmBody = { b_name_farm: 'De Hoeve' };
const writeFarm = (app: App, key: string) => call(app, key, 'POST', '/api/farms', farmBody);

/** Sends `count` farm creations and returns their statuses. */
async function writes(app: App, key: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await writeFarm(app, key)).status);
  return statuses;
}

const times = (status: number, count: number) => Array<number>(count).fill(status);

describe('rate limits per API key', () => {
  let t: LimitedApp;

  beforeAll(async () => {
    t = limitedApp(await openTestPglite());
  });
  afterAll(() => t.close());

  // Every test starts a fresh key and moves well past any window the previous test left.
  const freshKey = () => {
    t.clock.now += 10 * MINUTE;
    return signUpWithKey(t.app);
  };

  it('refuses the 31st write within 60 s with 429 rate-limit-exceeded and Retry-After until the oldest counted write leaves', async () => {
    const { key } = await freshKey();
    const start = t.clock.now;
    expect((await writeFarm(t.app, key)).status).toBe(201);
    t.clock.now = start + 5 * SECOND;
    expect(await writes(t.app, key, 29)).toEqual(times(201, 29));

    t.clock.now = start + 10 * SECOND + 200;
    const refused = await writeFarm(t.app, key);
    const body = await expectProblem(refused, 429, 'rate-limit-exceeded');
    expect(refused.headers.get('retry-after')).toBe('50'); // 49.8 s, rounded up
    expect(refused.headers.get('ratelimit')).toBe('"write";r=0;t=50');
    expect(refused.headers.get('ratelimit-policy')).toBe('"write";q=30;w=60');
    expect(body.detail).toContain('retry in 50 s');

    t.clock.now = start + MINUTE - 1;
    expect((await writeFarm(t.app, key)).headers.get('retry-after')).toBe('1');
  });

  it('admits a write exactly 60 s after the first counted one, and only that one', async () => {
    const { key } = await freshKey();
    const start = t.clock.now;
    await writeFarm(t.app, key);
    t.clock.now = start + 5 * SECOND;
    await writes(t.app, key, 29);
    t.clock.now = start + 30 * SECOND;
    expect(await writes(t.app, key, 10)).toEqual(times(429, 10)); // refused ones do not count

    t.clock.now = start + MINUTE;
    expect((await writeFarm(t.app, key)).status).toBe(201);
    const next = await writeFarm(t.app, key);
    expect(next.status).toBe(429);
    expect(next.headers.get('retry-after')).toBe('5');
  });

  it('allows no burst at the window edge: 30 writes at 0:59, then 30 at 1:01 are refused until the first 30 leave', async () => {
    const { key } = await freshKey();
    const start = t.clock.now;
    t.clock.now = start + 59 * SECOND;
    expect(await writes(t.app, key, 30)).toEqual(times(201, 30));
    t.clock.now = start + 61 * SECOND;
    const second = [];
    for (let i = 0; i < 30; i++) second.push(await writeFarm(t.app, key));
    expect(second.map((r) => r.status)).toEqual(times(429, 30));
    expect(second[0]!.headers.get('retry-after')).toBe('58');

    t.clock.now = start + 119 * SECOND - 1;
    expect((await writeFarm(t.app, key)).status).toBe(429);
    t.clock.now = start + 119 * SECOND;
    expect(await writes(t.app, key, 31)).toEqual([...times(201, 30), 429]);
  });

  it('keeps the categories apart: used-up writes leave reads alone, and used-up reads leave writes alone', async () => {
    const { key } = await freshKey();
    await writes(t.app, key, 31);
    const read = await call(t.app, key, 'GET', '/api/farms');
    expect(read.status).toBe(200);
    expect(read.headers.get('ratelimit')).toBe('"general";r=119;t=60');

    const other = await freshKey();
    for (let i = 0; i < 120; i++) expect((await call(t.app, other.key, 'GET', '/api/farms')).status).toBe(200);
    await expectProblem(await call(t.app, other.key, 'GET', '/api/farms'), 429, 'rate-limit-exceeded');
    const write = await writeFarm(t.app, other.key);
    expect(write.status).toBe(201);
    expect(write.headers.get('ratelimit')).toBe('"write";r=29;t=60');
  });

  it('counts a calculation only against the calculation limit of 10 per minute', async () => {
    const { key } = await freshKey();
    const farm = await createFarm(t.app, key);
    const calculations = [];
    for (let i = 0; i < 11; i++)
      calculations.push(await call(t.app, key, 'POST', `/api/farms/${farm.b_id_farm}/calculations/nitrogen-balance`));
    expect(calculations.slice(0, 10).map((r) => r.status)).not.toContain(429);
    expect(calculations[9]!.headers.get('ratelimit')).toBe('"calculation";r=0;t=60');
    await expectProblem(calculations[10]!, 429, 'rate-limit-exceeded');
    expect(calculations[10]!.headers.get('ratelimit-policy')).toBe('"calculation";q=10;w=60');
    expect((await writeFarm(t.app, key)).headers.get('ratelimit')).toBe('"write";r=28;t=60');
  });

  it('limits each key on its own: a second key of the same user is untouched', async () => {
    const first = await freshKey();
    const created = await t.app.request('/api/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'second' }),
      headers: { 'content-type': 'application/json', cookie: first.cookie },
    });
    const second = (await created.json()) as { key: string };
    expect(await writes(t.app, first.key, 31)).toEqual([...times(201, 30), 429]);
    expect(await writes(t.app, second.key, 30)).toEqual(times(201, 30));
  });

  it('counts key management in the general bucket, whatever the method', async () => {
    const { key } = await freshKey();
    await writes(t.app, key, 30);
    const created = await call(t.app, key, 'POST', '/api/keys', { name: 'from a script' });
    expect(created.status).toBe(201);
    expect(created.headers.get('ratelimit-policy')).toBe('"general";q=120;w=60');
    const { id } = (await created.json()) as { id: string };
    const revoked = await call(t.app, key, 'DELETE', `/api/keys/${id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.headers.get('ratelimit')).toBe('"general";r=118;t=60');
  });

  it('does not count requests refused before or at authentication (404, 405, 415, 400 ambiguous key, 401)', async () => {
    const { key } = await freshKey();
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    for (let i = 0; i < 40; i++) {
      expect((await t.app.request('/api/nothing', { method: 'POST', headers, body: '{}' })).status).toBe(404);
      expect((await t.app.request('/api/farms', { method: 'PUT', headers, body: '{}' })).status).toBe(405);
      expect(
        (await t.app.request('/api/farms', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/plain' }, body: 'x' }))
          .status,
      ).toBe(415);
      expect(
        (await t.app.request('/api/farms', { method: 'POST', headers: { ...headers, authorization: `Bearer ${key}` }, body: '{}' })).status,
      ).toBe(400);
      expect(
        (await t.app.request('/api/farms', { method: 'POST', headers: { ...headers, 'x-api-key': `${key}x` }, body: '{}' })).status,
      ).toBe(401);
    }
    const first = await writeFarm(t.app, key);
    expect(first.headers.get('ratelimit')).toBe('"write";r=29;t=60');
  });

  it('checks the limit after the key and before validation; a request that then fails validation counts', async () => {
    const { key } = await freshKey();
    for (let i = 0; i < 30; i++) expect((await call(t.app, key, 'POST', '/api/farms', { unknown: 1 })).status).toBe(400);
    await expectProblem(await call(t.app, key, 'POST', '/api/farms', { unknown: 1 }), 429, 'rate-limit-exceeded');
    await expectProblem(await writeFarm(t.app, `${key}x`), 401, 'unauthorized');
  });

  it('sends RateLimit and RateLimit-Policy on every authenticated answer, errors after the limit check included', async () => {
    const { key } = await freshKey();
    const missing = await call(t.app, key, 'GET', '/api/farms/unknown');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-policy')).toBe('"general";q=120;w=60');
    expect(missing.headers.get('ratelimit')).toBe('"general";r=119;t=60');
    const farm = await createFarm(t.app, key);
    t.clock.now += 15 * SECOND;
    const patched = await call(t.app, key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_address_farm: 'Dorpsstraat 1' });
    expect(patched.headers.get('ratelimit')).toBe('"write";r=28;t=45');
  });

  it('does not limit /api/openapi.json and /api/docs', async () => {
    await freshKey();
    for (let i = 0; i < 121; i++) {
      const response = await t.app.request('/api/openapi.json');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
    expect((await t.app.request('/api/docs')).headers.get('ratelimit')).toBeNull();
  });
});

describe('session requests', () => {
  let t: LimitedApp;
  beforeAll(async () => {
    t = limitedApp(await openTestPglite(), { RATE_LIMIT_GENERAL: '3' });
  });
  afterAll(() => t.close());

  it('are limited per user, apart from the keys of that user', async () => {
    const user = await signUpWithKey(t.app); // its POST /api/keys was the user's first general request
    const withCookie = () => t.app.request('/api/keys', { headers: { cookie: user.cookie } });
    expect((await withCookie()).status).toBe(200);
    const last = await withCookie();
    expect(last.headers.get('ratelimit')).toBe('"general";r=0;t=60');
    const refused = await expectProblem(await withCookie(), 429, 'rate-limit-exceeded');
    expect(refused.detail).toContain('for this user');
    expect((await call(t.app, user.key, 'GET', '/api/keys')).status).toBe(200);
  });
});

describe("a user's ceiling across all their keys", () => {
  let t: LimitedApp;
  beforeAll(async () => {
    // Ceilings of 4 × the per-key limits (the default factor): 12 general, 20 writes.
    t = limitedApp(await openTestPglite(), { RATE_LIMIT_GENERAL: '3', RATE_LIMIT_WRITE: '5' });
  });
  afterAll(() => t.close());

  async function userWithKeys(count: number): Promise<{ user: Account; keys: string[] }> {
    t.clock.now += 10 * MINUTE;
    const user = await signUpWithKey(t.app);
    const keys = [user.key];
    for (let i = 1; i < count; i++) {
      t.clock.now += MINUTE; // the session's general limit is 3 a minute
      const created = await t.app.request('/api/keys', {
        method: 'POST',
        body: JSON.stringify({ name: `key ${i}` }),
        headers: { 'content-type': 'application/json', cookie: user.cookie },
      });
      keys.push(((await created.json()) as { key: string }).key);
    }
    // Past the general requests that made the keys.
    t.clock.now += 10 * MINUTE;
    return { user, keys };
  }

  it('lets 6 keys of one user make no more writes in a minute than the ceiling, each refusal a 429 with Retry-After', async () => {
    const { keys } = await userWithKeys(6);
    const statuses: number[] = [];
    for (const key of keys) {
      for (let i = 0; i < 5; i++) {
        const response = await writeFarm(t.app, key);
        statuses.push(response.status);
        t.clock.now += SECOND;
      }
    }
    expect(statuses).toEqual([...times(201, 20), ...times(429, 10)]);
    const refused = await writeFarm(t.app, keys[5]!);
    const body = await expectProblem(refused, 429, 'rate-limit-exceeded');
    expect(body.detail).toContain('More than 20 write requests in 60 s for this user, across all their API keys');
    expect(refused.headers.get('retry-after')).toBe('30'); // the first write was 30 s ago
    expect(refused.headers.get('ratelimit-policy')).toBe('"write-per-user";q=20;w=60');
    const farms = (await (await call(t.app, keys[0]!, 'GET', '/api/farms')).json()) as { pagination: { total: number } };
    expect(farms.pagination.total).toBe(20);
  });

  it('counts a refused request in neither window: a key refused by the ceiling keeps its own room', async () => {
    const { keys } = await userWithKeys(5);
    for (const key of keys.slice(0, 4)) expect(await writes(t.app, key, 5)).toEqual(times(201, 5));
    expect(await writes(t.app, keys[4]!, 3)).toEqual(times(429, 3));
    t.clock.now += MINUTE;
    // Neither the ceiling nor key 5 counted the refusals: key 5 has its whole limit.
    expect(await writes(t.app, keys[4]!, 6)).toEqual([...times(201, 5), 429]);
  });

  it("counts the user's session requests in the same user window as their keys", async () => {
    const { user, keys } = await userWithKeys(4);
    for (const key of keys) expect((await call(t.app, key, 'GET', '/api/farms')).status).toBe(200);
    for (const key of keys.slice(0, 4)) {
      for (let i = 0; i < 2; i++) expect((await call(t.app, key, 'GET', '/api/farms')).status).toBe(200);
    }
    // 12 general requests by the keys: the ceiling is full, for the session too.
    const session = await t.app.request('/api/keys', { headers: { cookie: user.cookie } });
    await expectProblem(session, 429, 'rate-limit-exceeded');
  });

  it('reports the ceiling in RateLimit and RateLimit-Policy when it is the window closer to full', async () => {
    const { keys } = await userWithKeys(5);
    for (const key of keys.slice(0, 4)) await writes(t.app, key, 4);
    const last = await writeFarm(t.app, keys[4]!);
    expect(last.headers.get('ratelimit')).toBe('"write-per-user";r=3;t=60');
    expect(last.headers.get('ratelimit-policy')).toBe('"write-per-user";q=20;w=60');
    const own = await writeFarm(t.app, keys[0]!);
    expect(own.headers.get('ratelimit')).toBe('"write";r=0;t=60');
  });

  it('is off with RATE_LIMIT_USER_FACTOR=0: each key has its own limit only', async () => {
    const off = limitedApp(await openTestPglite(), { RATE_LIMIT_WRITE: '5', RATE_LIMIT_USER_FACTOR: '0' });
    try {
      const user = await signUpWithKey(off.app);
      const keys = [user.key];
      for (let i = 1; i < 6; i++) {
        keys.push(((await (await call(off.app, user.key, 'POST', '/api/keys', { name: `k${i}` })).json()) as { key: string }).key);
      }
      for (const key of keys) expect(await writes(off.app, key, 6)).toEqual([...times(201, 5), 429]);
    } finally {
      await off.close();
    }
  });
});

describe('the rate-limit middleware on its own', () => {
  // Calculation routes of any outcome, behind the real middleware: only the path and method decide.
  const policies = ratePolicies({ general: 120, write: 30, calculation: 10 });
  const app = new Hono<ApiEnv>();
  // The limiter hands its fields to the writer of answer headers, as in the app.
  app.use('*', writeResponseHeaders);
  app.use('*', async (c, next) => {
    c.set('principal', { userId: 'user-1', keyId: 'key-1', scope: FULL_SCOPE, verified: true });
    await next();
  });
  app.onError((error, c) => problemResponse(c, error as ApiError, 'https://akker.test/errors'));
  app.use('*', rateLimit(new MemoryWindows(() => 0), policies));
  app.post('/api/fields/:id/calculations/dose', (c) => c.json({ dose: 1 }));
  app.post('/api/farms/:id/calculations/nitrogen-balance', (c) => c.json({ balance: 1 }));
  app.post('/api/farms', (c) => c.json({}, 201));

  it('counts the three calculation endpoints together against the calculation limit only', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await app.request('/api/fields/f/calculations/dose', { method: 'POST' })).status);
    for (let i = 0; i < 5; i++) statuses.push((await app.request('/api/farms/f/calculations/nitrogen-balance', { method: 'POST' })).status);
    expect(statuses).toEqual([...times(200, 10), 429]);
    const write = await app.request('/api/farms', { method: 'POST' });
    expect(write.status).toBe(201);
    expect(write.headers.get('ratelimit')).toBe('"write";r=29;t=60');
  });
});

describe('CORS', () => {
  let t: LimitedApp;
  let user: Account;
  beforeAll(async () => {
    t = limitedApp(await openTestPglite(), { RATE_LIMIT_WRITE: '1' });
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());
  const origin = 'https://farm-app.example';

  it('answers a preflight from any origin, without allowing credentials', async () => {
    const response = await t.app.request('/api/farms', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('x-api-key,content-type');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lets a browser read the rate-limit headers, on a 429 too', async () => {
    const headers = { origin, 'x-api-key': user.key, 'content-type': 'application/json' };
    const created = await t.app.request('/api/farms', { method: 'POST', headers, body: JSON.stringify(farmBody) });
    const refused = await t.app.request('/api/farms', { method: 'POST', headers, body: JSON.stringify(farmBody) });
    for (const response of [created, refused]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      // Other fields are exposed too (Location, ETag…): these are the rate limit's.
      const exposed = response.headers.get('access-control-expose-headers')!.split(',');
      expect(exposed).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy', 'Retry-After']));
    }
    expect(refused.status).toBe(429);
  });

  it('leaves a request without Origin (not from a browser) alone, its answer kept by no cache', async () => {
    const response = await call(t.app, user.key, 'GET', '/api/farms');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('still answers a plain OPTIONS (not a preflight) with 405', async () => {
    expect((await t.app.request('/api/farms', { method: 'OPTIONS' })).status).toBe(405);
  });
});

describe('a refused request', () => {
  afterEach(() => vi.useRealTimers());

  it('makes no write of any kind, and no statement but the key lookup of a refused new farm (embedded database)', async () => {
    const { database, statements } = await instrumentedPglite();
    const t = limitedApp(database, { RATE_LIMIT_GENERAL: '2', RATE_LIMIT_WRITE: '2' });
    try {
      const user = await signUpWithKey(t.app);
      await call(t.app, user.key, 'GET', '/api/farms'); // the second general request of the user's key
      expect((await call(t.app, user.key, 'GET', '/api/farms')).status).toBe(200);
      await writes(t.app, user.key, 2);
      await keyUseRecorded(database, user.keyId);
      // Past the minute after which the next served request would record the key's use again.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 2 * MINUTE);
      statements.length = 0;

      for (let i = 0; i < 5; i++) {
        expect((await call(t.app, user.key, 'GET', '/api/farms')).status).toBe(429);
        expect((await writeFarm(t.app, user.key)).status).toBe(429);
        expect((await call(t.app, user.key, 'DELETE', '/api/farms/abc')).status).toBe(429);
      }
      vi.useRealTimers();
      // Time for a statement sent after the answer, were there one: that none comes cannot be awaited.
      await new Promise((resolve) => setTimeout(resolve, 50));
      // A new farm needs a verified key before anything (401 comes before 429): one read of the key each. A
      // delete, served on a remembered key as a read is (its first statement checks the key), sends none.
      expect(statements).toHaveLength(5);
      for (const statement of statements) expect(statement).toMatch(KEY_LOOK_UP);
    } finally {
      await t.close();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('makes no statement on PostgreSQL either; a refused write only looks its key up', async () => {
    const database = await openTestPostgres();
    const t = limitedApp(database, { RATE_LIMIT_GENERAL: '1', RATE_LIMIT_WRITE: '1' });
    const statements: string[] = [];
    try {
      const user = await signUpWithKey(t.app);
      await writes(t.app, user.key, 1);
      // The key is now remembered: reads use it unverified, to be re-checked by their first statement.
      expect((await call(t.app, user.key, 'GET', '/api/farms')).status).toBe(200);
      await keyUseRecorded(database, user.keyId);
      // Every statement, pooled or in a transaction, goes through a client's query.
      const query = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        const text = args[0];
        statements.push(typeof text === 'string' ? text : (text as { text: string }).text);
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query);

      for (let i = 0; i < 5; i++) expect((await call(t.app, user.key, 'GET', '/api/farms')).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(statements).toEqual([]);

      // A write needs a verified key before anything (401 comes before 429): one read, nothing else.
      expect((await writeFarm(t.app, user.key)).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(KEY_LOOK_UP);
    } finally {
      vi.restoreAllMocks();
      await t.close();
    }
  });
});

describe('configuration', () => {
  it('defaults to 120, 30 and 10 requests per minute', () => {
    expect(loadConfig({}).rateLimits).toEqual({ general: 120, write: 30, calculation: 10 });
  });

  it('takes other limits from RATE_LIMIT_GENERAL, RATE_LIMIT_WRITE and RATE_LIMIT_CALCULATION', () => {
    const config = loadConfig({ RATE_LIMIT_GENERAL: '600', RATE_LIMIT_WRITE: '100', RATE_LIMIT_CALCULATION: '20' });
    expect(config.rateLimits).toEqual({ general: 600, write: 100, calculation: 20 });
  });

  it('sets the per-user ceiling to 4 × the per-key limits by default, RATE_LIMIT_USER_FACTOR otherwise (0 = off)', () => {
    expect(loadConfig({}).rateLimitUserFactor).toBe(4);
    expect(loadConfig({ RATE_LIMIT_USER_FACTOR: '2.5' }).rateLimitUserFactor).toBe(2.5);
    expect(loadConfig({ RATE_LIMIT_USER_FACTOR: '0' }).rateLimitUserFactor).toBe(0);
    expect(() => loadConfig({ RATE_LIMIT_USER_FACTOR: '-1' })).toThrow(/RATE_LIMIT_USER_FACTOR/);
  });

  it.each(['0', '-5', '1.5', 'many', '1000001'])('refuses RATE_LIMIT_WRITE=%s with a message naming it', (value) => {
    expect(() => loadConfig({ RATE_LIMIT_WRITE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_WRITE: value })).toThrow(/RATE_LIMIT_WRITE/);
  });
});
