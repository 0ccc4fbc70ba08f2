// Rate-limit windows in Redis: the atomic sliding log, the stand-in memory store while Redis is away,
// and two API processes on one PostgreSQL and one Redis holding one limit between them.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { FallbackWindows, type RateLimitLog } from '../../src/rate-limit/fallback-windows.js';
import { MemoryWindows } from '../../src/rate-limit/memory-windows.js';
import { ratePolicies } from '../../src/rate-limit/policies.js';
import { connectRedis, RedisWindows } from '../../src/rate-limit/redis-windows.js';
import { openTestPostgres } from '../helpers/databases.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const redisUrl = process.env.TEST_REDIS_URL;
const databaseUrl = process.env.TEST_DATABASE_URL;
if (!redisUrl) console.log('[akker tests] TEST_REDIS_URL is not set: the Redis rate-limit tests are skipped.');
if (!redisUrl || !databaseUrl) {
  console.log('[akker tests] TEST_DATABASE_URL and TEST_REDIS_URL are both needed for the two-process rate-limit test: skipped.');
}

// Keys of this run only, removed afterwards; several runs may share one Redis.
const prefix = `akker-test:${randomBytes(6).toString('hex')}:`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recordingLog() {
  const lines: Array<{ level: string; msg: string }> = [];
  const log: RateLimitLog = (level, msg) => lines.push({ level, msg });
  return { log, lines };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

afterAll(async () => {
  if (!redisUrl) return;
  const redis = connectRedis(redisUrl);
  await once(redis, 'ready');
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe.skipIf(!redisUrl)('Redis store', () => {
  const short = ratePolicies({ general: 20, write: 3, calculation: 2 }, 1_000);
  let a: RedisWindows;
  let b: RedisWindows;

  beforeAll(async () => {
    a = new RedisWindows(connectRedis(redisUrl!), prefix);
    b = new RedisWindows(connectRedis(redisUrl!), prefix);
    await Promise.all([once(a.connection, 'ready'), once(b.connection, 'ready')]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it("counts up to the limit on Redis's clock, refuses until the oldest counted request leaves, then admits again", async () => {
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await a.hit(short.write, 'window'));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    const refused = decisions[3]!;
    expect(refused.resetMs).toBeGreaterThan(0);
    expect(refused.resetMs).toBeLessThanOrEqual(1_000);
    await sleep(refused.resetMs + 5);
    expect((await a.hit(short.write, 'window')).allowed).toBe(true);
  });

  it('shares one window between connections, exactly, under concurrent requests', async () => {
    const hits = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).hit(short.general, 'shared'));
    const allowed = (await Promise.all(hits)).filter((d) => d.allowed).length;
    expect(allowed).toBe(20);
  });

  it('writes nothing for a refused request', async () => {
    for (let i = 0; i < 3; i++) await a.hit(short.write, 'refused');
    const key = `${prefix}write:refused`;
    const before = await a.connection.lrange(key, 0, -1);
    const ttlBefore = await a.connection.pttl(key);
    expect((await b.hit(short.write, 'refused')).allowed).toBe(false);
    expect(await a.connection.lrange(key, 0, -1)).toEqual(before);
    expect(await a.connection.pttl(key)).toBeLessThanOrEqual(ttlBefore);
  });

  it('keeps the policies and the buckets apart', async () => {
    for (let i = 0; i < 3; i++) await a.hit(short.write, 'apart');
    expect((await a.hit(short.write, 'apart')).allowed).toBe(false);
    expect((await a.hit(short.calculation, 'apart')).allowed).toBe(true);
    expect((await a.hit(short.write, 'apart-too')).allowed).toBe(true);
  });

  it("counts a request in its own window and its user's ceiling, both or neither", async () => {
    const ceiling = ratePolicies({ general: 4, write: 4, calculation: 4 }, 1_000).write;
    const user = (bucket: string) => a.hit(short.write, bucket, { policy: ceiling, bucket: 'ceiling-user' });
    expect((await user('ceiling-a')).remaining).toBe(2);
    expect((await user('ceiling-a')).remaining).toBe(1);
    const third = await user('ceiling-b');
    expect([third.remaining, third.byCeiling]).toEqual([1, true]); // the ceiling has less room than b's own window
    expect((await user('ceiling-a')).allowed).toBe(true); // a: 3 of 3, ceiling: 4 of 4
    const refused = await user('ceiling-b');
    expect([refused.allowed, refused.byCeiling]).toEqual([false, true]);
    // The refusal counted nowhere: b has 1 request in its window, the ceiling 4.
    expect(await a.connection.llen(`${prefix}write:ceiling-b`)).toBe(1);
    expect(await a.connection.llen(`${prefix}write:ceiling-user`)).toBe(4);
    const ownFull = await user('ceiling-a');
    expect([ownFull.allowed, ownFull.byCeiling]).toEqual([false, undefined]);
  });

  it('holds the ceiling exactly under concurrent requests of many buckets on two connections', async () => {
    const ceiling = ratePolicies({ general: 20, write: 20, calculation: 20 }, 1_000).general;
    const hits = Array.from({ length: 100 }, (_, i) =>
      (i % 2 === 0 ? a : b).hit(short.general, `many-${i % 10}`, { policy: ceiling, bucket: 'many-user' }),
    );
    expect((await Promise.all(hits)).filter((d) => d.allowed)).toHaveLength(20);
  });

  it('loads its script again when Redis has forgotten it', async () => {
    await a.connection.script('FLUSH');
    expect((await a.hit(short.write, 'flushed')).remaining).toBe(2);
  });
});

/** A TCP proxy in front of Redis that can be taken away, brought back on the same port, or made silent. */
class RedisProxy {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  #silent = false;
  port = 0;

  constructor(private readonly target: URL) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.#silent = false;
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          this.#sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (data) => this.#silent || upstream.write(data));
      upstream.on('data', (data) => this.#silent || client.write(data));
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Keeps the connections open but forwards nothing: a Redis that hangs. */
  silence(): void {
    this.#silent = true;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

describe('Redis store with the memory store standing in', () => {
  const policies = ratePolicies({ general: 120, write: 3, calculation: 10 });

  it('keeps serving from memory when Redis cannot be reached, and logs it once', async () => {
    const { log, lines } = recordingLog();
    const store = new FallbackWindows(new RedisWindows(connectRedis('redis://127.0.0.1:1'), prefix), new MemoryWindows(), log);
    try {
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await store.hit(policies.write, 'offline'));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
      expect(lines).toEqual([{ level: 'warn', msg: expect.stringContaining('Redis is unreachable') }]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!redisUrl)('uses a connection that is ready already at once', async () => {
    const shared = new RedisWindows(connectRedis(redisUrl!), prefix);
    await once(shared.connection, 'ready');
    const store = new FallbackWindows(shared, new MemoryWindows(), recordingLog().log);
    try {
      expect((await store.hit(policies.write, 'ready')).remaining).toBe(2);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!redisUrl)('goes back to Redis when it returns', async () => {
    const proxy = new RedisProxy(new URL(redisUrl!));
    await proxy.start();
    const { log, lines } = recordingLog();
    const shared = new RedisWindows(connectRedis(proxy.url), prefix);
    const store = new FallbackWindows(shared, new MemoryWindows(), log);
    const direct = new RedisWindows(connectRedis(redisUrl!), prefix);
    await once(direct.connection, 'ready');
    try {
      for (let i = 0; i < 3; i++) expect((await direct.hit(policies.write, 'outage')).allowed).toBe(true);
      expect((await store.hit(policies.write, 'outage')).allowed).toBe(false); // Redis's window: full

      await proxy.stop();
      await waitFor(() => shared.connection.status !== 'ready', 2_000);
      expect((await store.hit(policies.write, 'outage')).allowed).toBe(true); // this process's memory
      expect(lines.map((l) => l.level)).toEqual(['warn']);

      await proxy.start();
      await waitFor(() => shared.connection.status === 'ready', 10_000);
      expect((await store.hit(policies.write, 'outage')).allowed).toBe(false); // Redis's window again
      expect(lines).toEqual([
        { level: 'warn', msg: expect.stringContaining('Redis is unreachable') },
        { level: 'info', msg: expect.stringContaining('Redis is reachable again') },
      ]);
    } finally {
      await Promise.all([store.close(), direct.close()]);
      await proxy.stop();
    }
  });

  it.skipIf(!redisUrl)('stops waiting for a Redis that hangs', async () => {
    const proxy = new RedisProxy(new URL(redisUrl!));
    await proxy.start();
    const { log, lines } = recordingLog();
    const shared = new RedisWindows(connectRedis(proxy.url), prefix);
    const store = new FallbackWindows(shared, new MemoryWindows(), log);
    try {
      expect((await store.hit(policies.write, 'hang')).remaining).toBe(2);
      proxy.silence();
      const started = performance.now();
      expect((await store.hit(policies.write, 'hang')).remaining).toBe(2); // the first in memory
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(lines.map((l) => l.level)).toEqual(['warn']);
      await waitFor(() => shared.connection.status !== 'ready', 3_000);
      const next = performance.now();
      expect((await store.hit(policies.write, 'hang')).remaining).toBe(1);
      expect(performance.now() - next).toBeLessThan(50);
    } finally {
      await store.close();
      await proxy.stop();
    }
  });
});

describe.skipIf(!redisUrl || !databaseUrl)('two API processes on one PostgreSQL and one Redis', () => {
  let database: Awaited<ReturnType<typeof openTestPostgres>>;
  let apis: ServerProcess[] = [];

  beforeAll(async () => {
    database = await openTestPostgres();
    const env = { DATABASE_URL: database.url, REDIS_URL: redisUrl!, RATE_LIMIT_REDIS_PREFIX: prefix, RATE_LIMIT_WRITE: '30' };
    apis = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(
      apis.map((api) => {
        api.kill('SIGTERM');
        return api.exited;
      }),
    );
    await database?.close();
  });

  async function newKey(name: string): Promise<string> {
    const signUp = await fetch(`${apis[0]!.url}/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${name}-${randomBytes(4).toString('hex')}@example.org`, password: 'correct horse', name }),
    });
    const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
    const created = await fetch(`${apis[1]!.url}/api/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name }),
    });
    return ((await created.json()) as { key: string }).key;
  }

  const createFarm = (api: ServerProcess, key: string) =>
    fetch(`${api.url}/api/farms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ b_name_farm: 'Gedeeld' }),
    });

  const farmsOf = async () => (await queryRows<{ farms: number }>(database.db, sql`select count(*)::int as farms from farms`))[0]!.farms;

  it('accept 30 writes in total within a minute, not 30 each', async () => {
    const key = await newKey('alternating');
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const response = await createFarm(apis[i % 2]!, key);
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(201));
    expect(statuses.slice(30)).toEqual(Array(30).fill(429)); // each process refuses 15
    expect(await farmsOf()).toBe(30);
  });

  it('accept exactly 30 of 60 writes sent to both at once', async () => {
    const key = await newKey('concurrent');
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => createFarm(apis[i % 2]!, key)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(await farmsOf()).toBe(60);
  });
});
