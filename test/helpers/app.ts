// Starts the real app on a test database and offers the requests every test needs.
import { createApp, createDeps, type App } from '../../src/app/app.js';
import { loadConfig, type Config } from '../../src/core/config.js';
import { openPostgres, type DatabaseHandle } from '../../src/db/client.js';
import type { AppDeps } from '../../src/app/deps.js';
import type { RateLimitWindows } from '../../src/rate-limit/windows.js';
import { openTestDatabase, openTestPostgres, type StorageKind } from './databases.js';

export interface TestApp {
  app: App;
  deps: AppDeps;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

// No request log unless a test asks for one (test/ops/request-log.test.ts): it would drown the test output.
export const testConfig = (env: Record<string, string> = {}): Config =>
  loadConfig({ PUBLIC_URL: 'https://akker.test', DATA_DIR: 'memory://', LOG_REQUESTS: 'false', ...env });

// Tests write hundreds of records with one key, and sign many users up from one address; the limits
// have tests of their own (test/http/rate-limit*, test/accounts/sign-up-throttle.test.ts).
const UNLIMITED = {
  RATE_LIMIT_GENERAL: '1000000',
  RATE_LIMIT_WRITE: '1000000',
  RATE_LIMIT_CALCULATION: '1000000',
  SIGNUP_LIMIT_PER_HOUR: '0',
};

/** The app on `database`, with rate limits out of the way unless `env` sets them; `rateLimits`: a store of the test's. */
export function appOn(database: DatabaseHandle, env: Record<string, string> = {}, rateLimits?: RateLimitWindows): TestApp {
  const config = testConfig({ ...UNLIMITED, ...env });
  const deps = createDeps(config, database, { rateLimits });
  return { app: createApp(deps), deps, database, config, close: () => database.close() };
}

export async function startTestApp(kind: StorageKind, env: Record<string, string> = {}, rateLimits?: RateLimitWindows): Promise<TestApp> {
  return appOn(await openTestDatabase(kind), env, rateLimits);
}

/**
 * Two apps on one fresh PostgreSQL database, each with its own pool and its own memory (remembered
 * keys, rate-limit windows), as two processes would be; `url` is the database's. Needs TEST_DATABASE_URL.
 */
export async function withTwoProcessesOnPostgres(work: (a: TestApp, b: TestApp, url: string) => Promise<void>): Promise<void> {
  const database = await openTestPostgres();
  const other = await openPostgres(database.url, 2);
  try {
    await work(appOn(database), appOn(other), database.url);
  } finally {
    await other.close();
    await database.close();
  }
}

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

export interface Account {
  userId: string;
  email: string;
  cookie: string;
  key: string;
  keyId: string;
}

let accounts = 0;

/** Signs a new user up (JSON endpoints) and creates an API key for them with the session cookie. */
export async function signUpWithKey(app: App, email = `user${++accounts}-${Date.now()}@example.org`): Promise<Account> {
  const signUp = await app.request('/auth/sign-up', { method: 'POST', ...json({ email, password: 'correct horse', name: 'Test User' }) });
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
  const user = (await signUp.json()) as { user_id: string };
  const created = await app.request('/api/keys', {
    method: 'POST',
    body: JSON.stringify({ name: 'test' }),
    headers: { 'content-type': 'application/json', cookie },
  });
  if (created.status !== 201) throw new Error(`key creation failed: ${created.status} ${await created.text()}`);
  const key = (await created.json()) as { key: string; id: string };
  return { userId: user.user_id, email, cookie, key: key.key, keyId: key.id };
}

/** A request with an API key and, when given, a JSON body. */
export function call(app: App, key: string, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (body === undefined) return Promise.resolve(app.request(path, { method, headers }));
  return Promise.resolve(
    app.request(path, { method, body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } }),
  );
}

export async function createFarm(app: App, key: string, body: Record<string, unknown> = { b_name_farm: 'De Hoeve' }) {
  const response = await call(app, key, 'POST', '/api/farms', body);
  if (response.status !== 201) throw new Error(`farm creation failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { b_id_farm: string; b_name_farm: string };
}

/** Asserts the documented problem+json shape and returns the body. */
export async function expectProblem(response: Response, status: number, code: string) {
  const { expect } = await import('vitest');
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.type).toBe(`https://akker.test/errors/${code}`);
  expect(body.status).toBe(status);
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(typeof body.instance).toBe('string');
  expect(body.error_id).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  const allowed = ['type', 'title', 'status', 'detail', 'instance', 'error_id', 'errors', 'errors_omitted'];
  expect(Object.keys(body).filter((k) => !allowed.includes(k))).toEqual([]);
  return body;
}
