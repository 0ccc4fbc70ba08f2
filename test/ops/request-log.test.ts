// One JSON log line per request, naming the caller by user and key id and never by key, cookie or
// body; X-Request-Id taken from the client when well formed, else made, and returned on every answer.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, createDeps } from '../../src/app/app.js';
import { createLogger } from '../../src/core/logger.js';
import { signUpWithKey, testConfig } from '../helpers/app.js';
import type { App } from '../../src/app/app.js';
import { openTestPglite } from '../helpers/databases.js';

interface Served {
  url: string;
  lines: string[];
  app: App;
  close(): Promise<void>;
}
const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.close();
});

async function serveWithLog(env: Record<string, string> = {}): Promise<Served> {
  const database = await openTestPglite();
  const deps = createDeps(testConfig(env), database);
  const lines: string[] = [];
  deps.log = createLogger('info', { write: (line: string) => void lines.push(line) });
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
  });
  const s: Served = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lines,
    app,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await database.close();
    },
  };
  served.push(s);
  return s;
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

// Generous: a fresh embedded database takes seconds to open on a loaded machine.
describe('request log', { timeout: 120_000 }, () => {
  it('writes one line per request with route, status, duration, user and key id and error_id, and no key, cookie or password', async () => {
    const { url, lines } = await serveWithLog({ LOG_REQUESTS: 'true' });
    const password = 'a very secret password';
    const signUp = await post(`${url}/auth/sign-up`, { email: 'log@example.org', password, name: 'Log' });
    expect(signUp.status).toBe(201);
    const { user_id: userId } = (await signUp.json()) as { user_id: string };
    const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
    const created = await post(`${url}/api/keys`, { name: 'logged' }, { cookie });
    const { key, id: keyId } = (await created.json()) as { key: string; id: string };
    const farm = (await (await post(`${url}/api/farms`, { b_name_farm: 'Logboerderij' }, { 'x-api-key': key })).json()) as {
      b_id_farm: string;
    };
    expect((await fetch(`${url}/api/farms/${farm.b_id_farm}`, { headers: { 'x-api-key': key } })).status).toBe(200);
    const missing = await fetch(`${url}/api/farms/nothing-here`, { headers: { authorization: `Bearer ${key}` } });
    const problem = (await missing.json()) as { error_id: string };
    expect((await fetch(`${url}/health`)).status).toBe(200);

    expect(lines).toHaveLength(6);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((e) => [e.method, e.route, e.status])).toEqual([
      ['POST', '/auth/sign-up', 201],
      ['POST', '/api/keys', 201],
      ['POST', '/api/farms', 201],
      ['GET', '/api/farms/:b_id_farm', 200],
      ['GET', '/api/farms/:b_id_farm', 404],
      ['GET', '/health', 200],
    ]);
    for (const entry of entries) {
      expect(entry.level).toBe('info');
      expect(typeof entry.duration_ms).toBe('number');
      expect(entry.request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(entries[1]).toMatchObject({ user_id: userId });
    expect(entries[1]!.key_id).toBeUndefined();
    expect(entries[3]).toMatchObject({ user_id: userId, key_id: keyId });
    expect(entries[4]).toMatchObject({ key_id: keyId, error_id: problem.error_id });
    expect(entries[3]!.error_id).toBeUndefined();

    const log = lines.join('');
    expect(log).not.toContain(key);
    expect(log).not.toContain(cookie.split('=')[1]!);
    expect(log).not.toContain(password);
    expect(log).not.toContain('Logboerderij');
  });

  it('returns the client’s X-Request-Id when it is well formed, a new one otherwise, and logs it', async () => {
    const { url, lines } = await serveWithLog({ LOG_REQUESTS: 'true' });
    const given = await fetch(`${url}/health`, { headers: { 'x-request-id': 'lb-7f3a:01.x_y' } });
    expect(given.headers.get('x-request-id')).toBe('lb-7f3a:01.x_y');
    for (const bad of ['has space', 'x'.repeat(129), 'quote"d']) {
      const answered = await fetch(`${url}/api/farms`, { headers: { 'x-request-id': bad } });
      expect(answered.status).toBe(401);
      expect(answered.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((JSON.parse(lines[0]!) as { request_id: string }).request_id).toBe('lb-7f3a:01.x_y');
    expect(lines).toHaveLength(4);
  });

  it('returns X-Request-Id once on every kind of response: a record, a 304, an error, a redirect, a page, the document and the docs page', async () => {
    const { url, app } = await serveWithLog({ LOG_REQUESTS: 'false' });
    const { key } = await signUpWithKey(app);
    const headers = { 'x-api-key': key };
    const farm = await fetch(`${url}/api/farms`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"b_name_farm":"Id"}',
    });
    const { b_id_farm } = (await farm.json()) as { b_id_farm: string };
    const read = await fetch(`${url}/api/farms/${b_id_farm}`, { headers });
    const responses = [
      farm,
      read,
      await fetch(`${url}/api/farms/${b_id_farm}`, { headers: { ...headers, 'if-none-match': read.headers.get('etag')! } }),
      await fetch(`${url}/api/farms/none`, { headers }),
      await fetch(`${url}/`, { redirect: 'manual' }),
      await fetch(`${url}/signin`),
      await fetch(`${url}/api/openapi.json`),
      await fetch(`${url}/api/docs`),
    ];
    expect(responses.map((response) => response.status)).toEqual([201, 200, 304, 404, 302, 200, 200, 200]);
    for (const response of responses) expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes no lines with LOG_REQUESTS=false, and still returns X-Request-Id', async () => {
    const { url, lines } = await serveWithLog({ LOG_REQUESTS: 'false' });
    const answered = await fetch(`${url}/health`);
    expect(answered.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([]);
  });
});
