// A fresh Akker app on an in-memory embedded database, driven with app.request (no network, no load tool):
// for timing single operations whose cost is the database work, not the HTTP stack.
import { PGlite } from '@electric-sql/pglite';
import { createApp, createDeps, type App } from '../src/app/app.js';
import { loadConfig } from '../src/core/config.js';
import { pgliteHandle, type DatabaseHandle } from '../src/db/client.js';

export interface BenchApp {
  app: App;
  database: DatabaseHandle;
  key: string;
  close(): Promise<void>;
}

/**
 * `env`: settings besides the raised limits (LOG_REQUESTS=false for a bench that prints while requests run);
 * `database`: a database to work on (migrated here, closed with the app), else a new one in memory.
 */
export async function startInProcess(env: Record<string, string> = {}, given?: DatabaseHandle): Promise<BenchApp> {
  const database = given ?? pgliteHandle(await PGlite.create());
  await database.migrate();
  const unlimited = { RATE_LIMIT_GENERAL: '1000000', RATE_LIMIT_WRITE: '1000000', RATE_LIMIT_CALCULATION: '1000000' };
  const app = createApp(createDeps(loadConfig({ DATA_DIR: 'memory://', ...unlimited, ...env }), database));
  const signUp = await app.request('/auth/sign-up', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.org', password: 'bench password', name: 'Bench' }),
  });
  const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
  const created = await app.request('/api/keys', {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'bench' }),
  });
  const { key } = (await created.json()) as { key: string };
  return { app, database, key, close: () => database.close() };
}

/** A request with the key; fails loudly on an unexpected status, since a benchmark of errors measures nothing. */
export async function send(bench: BenchApp, method: string, path: string, body?: unknown, expected = [200, 201, 204]): Promise<any> {
  const init: RequestInit = { method, headers: { 'x-api-key': bench.key, 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await bench.app.request(path, init);
  if (!expected.includes(response.status)) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

/** Runs `operation` `runs` times after `warmup` runs and returns the durations in ms, sorted. */
export async function time(operation: () => Promise<unknown>, runs: number, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await operation();
  const durations: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await operation();
    durations.push(performance.now() - start);
  }
  return durations.sort((a, b) => a - b);
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export const describeTimes = (sorted: number[]) =>
  `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (n=${sorted.length})`;

/** The polygon of field number `index` of a benchmark farm: rectangles of about 15 ha on a grid of ten columns. */
export function gridFieldGeometry(index: number) {
  const lon = 5 + (index % 10) * 0.01;
  const lat = 52 + Math.floor(index / 10) * 0.01;
  const ring = [
    [lon, lat],
    [lon + 0.005, lat],
    [lon + 0.005, lat + 0.004],
    [lon, lat + 0.004],
    [lon, lat],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

/** Spreads each `[fertilizer, amount in its display unit, date]` on the field by `method`, through the API. */
export async function applyFertilizers(
  bench: BenchApp,
  fieldId: string,
  applications: ReadonlyArray<readonly [string, number, string]>,
  method: string,
): Promise<void> {
  for (const [p_id, amount, date] of applications) {
    await send(bench, 'POST', `/api/fields/${fieldId}/fertilizer-applications`, {
      p_id,
      p_app_amount_display: amount,
      p_app_date: date,
      p_app_method: method,
    });
  }
}
