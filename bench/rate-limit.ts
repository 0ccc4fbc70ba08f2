// What the rate limiter adds to a request: the stores on their own (memory, Redis), and the
// middleware in a bare Hono app answered in-process (no limiter / memory / Redis), so that neither
// the network nor a database hides the difference. Figures only, no assertions.
// Settings: BENCH_REDIS_URL (default redis://127.0.0.1:6379; the Redis rows are skipped if unreachable).
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { Hono } from 'hono';
import { writeResponseHeaders } from '../src/http/response-headers.js';
import type { ApiEnv } from '../src/http/env.js';
import { FallbackWindows } from '../src/rate-limit/fallback-windows.js';
import { MemoryWindows } from '../src/rate-limit/memory-windows.js';
import { rateLimit } from '../src/app/rate-limit.js';
import { ratePolicies, type RatePolicy } from '../src/rate-limit/policies.js';
import { connectRedis, RedisWindows } from '../src/rate-limit/redis-windows.js';
import type { RateLimitWindows } from '../src/rate-limit/windows.js';
import { problemResponse, type ApiError } from '../src/http/problem.js';
import { FULL_SCOPE } from '../src/core/principal.js';

const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `akker-bench:${randomBytes(4).toString('hex')}:`;
const KEYS = 1_000;
const bucketNames = Array.from({ length: KEYS }, (_, i) => `key-${i}`);

// Limits high enough that every hit is counted, and low enough that every hit is refused.
const roomy = ratePolicies({ general: 1_000_000, write: 1_000_000, calculation: 1_000_000 });
const full = ratePolicies({ general: 10, write: 10, calculation: 10 });

const format = (ns: number) => (ns >= 1_000 ? `${(ns / 1000).toFixed(ns >= 10_000 ? 1 : 2)} µs` : `${Math.round(ns)} ns`);
const row = (label: string, value: string) => console.log(`  ${label.padEnd(58)}${value.padStart(14)}`);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Mean nanoseconds per hit over `count` sequential hits spread over KEYS buckets. */
async function perHit(store: RateLimitWindows, policy: RatePolicy, count: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await store.hit(policy, bucketNames[i % KEYS]!);
  return Number(process.hrtime.bigint() - started) / count;
}

async function benchMemoryStore(): Promise<void> {
  console.log('\nMemory store (one process), sequential hits over 1,000 keys:');
  const counted = new MemoryWindows();
  await perHit(counted, roomy.general, 200_000); // warm-up, and windows of 200 requests per key
  row('counted hit (window of ~1,000 requests per key)', format(await perHit(counted, roomy.general, 1_000_000)));
  const refused = new MemoryWindows();
  await perHit(refused, full.general, 100_000);
  row('refused hit (window full)', format(await perHit(refused, full.general, 1_000_000)));
}

async function openRedis(): Promise<RedisWindows | undefined> {
  const connection = connectRedis(redisUrl);
  connection.on('error', () => {});
  const ready = await Promise.race([
    once(connection, 'ready').then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000)),
  ]);
  if (ready) return new RedisWindows(connection, prefix);
  connection.disconnect();
  console.log(`\nRedis: skipped, ${redisUrl} does not answer (set BENCH_REDIS_URL).`);
  return undefined;
}

async function benchRedisStore(store: RedisWindows): Promise<void> {
  console.log(`\nRedis store (${redisUrl}, loopback), one Lua script per hit:`);
  await perHit(store, roomy.general, 2_000);
  const latencies: number[] = [];
  for (let i = 0; i < 10_000; i++) {
    const started = process.hrtime.bigint();
    await store.hit(roomy.general, bucketNames[i % KEYS]!);
    latencies.push(Number(process.hrtime.bigint() - started));
  }
  latencies.sort((a, b) => a - b);
  row('sequential hit, p50', format(quantile(latencies, 0.5)));
  row('sequential hit, p99', format(quantile(latencies, 0.99)));
  const inFlight = 64;
  const total = 50_000;
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) await store.hit(roomy.general, bucketNames[next++ % KEYS]!);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  row(`${inFlight} hits in flight: hits per second`, Math.round(total / seconds).toLocaleString('en-US'));
  row('refused hit (window full), sequential mean', format(await perHit(store, full.write, 5_000)));
}

/**
 * Hono with the principal set as authentication would, the limiter (if any) with the writer of its
 * answer headers, and one constant route.
 */
function bareApp(store: RateLimitWindows | undefined): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  let request = 0;
  if (store) app.use('*', writeResponseHeaders);
  app.use('*', async (c, next) => {
    c.set('principal', { userId: 'bench', keyId: bucketNames[request++ % KEYS]!, scope: FULL_SCOPE, verified: true });
    await next();
  });
  if (store) {
    app.onError((error, c) => problemResponse(c, error as ApiError, 'http://bench/errors'));
    app.use('*', rateLimit(store, roomy));
  }
  app.get('/api/farms/:id', (c) => c.json({ b_id_farm: c.req.param('id'), b_name_farm: 'Bench Farm' }));
  return app;
}

/** Median over rounds of the mean microseconds per in-process request; the variants take turns. */
async function benchMiddleware(stores: Array<[string, RateLimitWindows | undefined]>): Promise<void> {
  const perRound = 20_000;
  const rounds = 7;
  const apps = stores.map(([name, store]) => ({ name, app: bareApp(store), samples: [] as number[] }));
  for (let round = 0; round <= rounds; round++) {
    for (const variant of apps) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < perRound; i++) {
        const response = await variant.app.request('/api/farms/AAAAAAAAAAAAAAAAAAAAAA');
        if (response.status !== 200) throw new Error(`${variant.name}: status ${response.status}`);
      }
      if (round > 0) variant.samples.push(Number(process.hrtime.bigint() - started) / perRound); // round 0 warms up
    }
  }
  console.log(
    `\nMiddleware in a bare Hono app, GET answered in-process (app.request), median of ${rounds} rounds of ${perRound.toLocaleString('en-US')}:`,
  );
  const medians = apps.map(({ name, samples }) => ({ name, ns: samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]! }));
  const baseline = medians[0]!.ns;
  for (const { name, ns } of medians) {
    row(`${name}: per request`, format(ns));
    if (ns !== baseline) row(`${name}: added by the limiter`, format(ns - baseline));
  }
}

async function main(): Promise<void> {
  console.log(`Akker rate-limit benchmark: node ${process.version}, ${availableParallelism()} CPUs.`);
  await benchMemoryStore();
  const redis = await openRedis();
  if (redis) await benchRedisStore(redis);
  const variants: Array<[string, RateLimitWindows | undefined]> = [
    ['no limiter', undefined],
    ['memory store', new MemoryWindows()],
  ];
  // As in production: Redis, with the memory store standing in should it fail.
  const shared = redis && new FallbackWindows(redis, new MemoryWindows());
  if (shared) variants.push(['Redis store', shared]);
  await benchMiddleware(variants);
  if (redis && shared) {
    const keys = await redis.connection.keys(`${prefix}*`);
    for (let i = 0; i < keys.length; i += 1_000) await redis.connection.del(...keys.slice(i, i + 1_000));
    await shared.close();
  }
}

await main();
