// The header fields middleware adds to every answer (RateLimit, RateLimit-Policy, Cache-Control), as a real
// Node server sends them: there they go onto the Node response, not through a fetch Response.
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseHeaderName } from '../../src/http/response-header-fields.js';
import { addResponseHeader, writeResponseHeaders } from '../../src/http/response-headers.js';
import { json, noContent } from '../../src/http/responses.js';
import { ApiError, problemResponse } from '../../src/http/problem.js';
import type { ApiEnv } from '../../src/http/env.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { signUpOver } from '../helpers/server-process.js';

let server: ListeningApp;
let key: string;
let farmPath: string;

beforeAll(async () => {
  server = await startListeningApp('pglite', { RATE_LIMIT_GENERAL: '120', RATE_LIMIT_WRITE: '30' });
  key = await signUpOver(server.url, 'headers@example.org');
  const created = await createFarm('Headers');
  expect(created.status).toBe(201);
  expect(created.headers.get('ratelimit')).toBe('"write";r=29;t=60');
  farmPath = created.headers.get('location')!;
}, 60_000);
afterAll(() => server?.close());

const createFarm = (name: string) =>
  fetch(`${server.url}/api/farms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ b_name_farm: name }),
  });
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { 'x-api-key': key, ...headers } });

describe('answer headers over HTTP', () => {
  it('are on a successful read, next to its own Content-Type and Content-Length', async () => {
    const response = await get(farmPath);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('ratelimit-policy')).toBe('"general";q=120;w=60');
    expect(response.headers.get('ratelimit')).toMatch(/^"general";r=11\d;t=\d+$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('vary')).toBeNull();
    const body = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(body));
  });

  it('are on a deletion (204), once each', async () => {
    const created = await createFarm('Short-lived');
    const deleted = await fetch(`${server.url}${created.headers.get('location')}`, { method: 'DELETE', headers: { 'x-api-key': key } });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('ratelimit')).toMatch(/^"write";r=\d+;t=\d+$/);
    expect(deleted.headers.get('cache-control')).toBe('no-store');
  });

  it('are on error answers after the limiter: 404 and 400', async () => {
    for (const [path, status] of [
      ['/api/farms/AAAAAAAAAAAAAAAAAAAAAA', 404],
      ['/api/farms?limit=0', 400],
    ] as const) {
      const response = await get(path);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('ratelimit-policy')).toBe('"general";q=120;w=60');
      expect(response.headers.get('ratelimit')).toMatch(/^"general";r=\d+;t=\d+$/);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('are not on an answer refused before the limiter (401), which no cache may keep all the same', async () => {
    const response = await fetch(`${server.url}${farmPath}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('ratelimit')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it("leave a field the answer sets itself alone: the docs' assets stay cacheable", async () => {
    const response = await fetch(`${server.url}/api/docs/start.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const asset = await fetch(`${server.url}/api/docs/swagger-ui.css`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('go to browsers through CORS, which then answers for the Origin itself', async () => {
    const response = await get(farmPath, { origin: 'https://app.example.org' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('RateLimit');
    expect(response.headers.get('ratelimit')).toMatch(/^"general";r=\d+;t=\d+$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('come with CORS on an error response, whichever step of the pipeline answered it', async () => {
    const origin = { origin: 'https://app.example.org' };
    const json = { 'content-type': 'application/json' };
    const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      fetch(`${server.url}${path}`, { method, headers: { 'x-api-key': key, ...origin, ...headers }, body });
    for (const [step, response, status] of [
      ['route guard, 404', await send('GET', '/api/nothing-here', {}), 404],
      ['route guard, 405', await send('PUT', '/api/farms', json, '{}'), 405],
      ['body guard, 413', await send('POST', '/api/farms', json, `{"b_name_farm":"${'x'.repeat(70_000)}"}`), 413],
      ['body guard, 415', await send('POST', '/api/farms', { 'content-type': 'text/plain' }, 'x'), 415],
      ['authentication, 401', await send('GET', farmPath, { 'x-api-key': 'akk_not-a-key' }), 401],
      ['shape guard, 400', await send('POST', '/api/farms', json, '['.repeat(200)), 400],
      ['precondition guard, 400', await send('PATCH', farmPath, { ...json, 'if-none-match': '*' }, '{}'), 400],
      ['route schemas, 400', await send('POST', '/api/farms', json, '{"b_name_farm":1}'), 400],
      ['route, 404', await send('GET', '/api/farms/no-such-farm', {}), 404],
    ] as const) {
      expect([step, response.status]).toEqual([step, status]);
      expect([step, response.headers.get('content-type')]).toEqual([step, 'application/problem+json']);
      expect([step, response.headers.get('access-control-allow-origin')]).toEqual([step, '*']);
      expect([step, response.headers.get('cache-control')]).toEqual([step, 'no-store']);
      expect([step, response.headers.get('x-content-type-options')]).toEqual([step, 'nosniff']);
      expect([step, response.headers.get('x-request-id')]).toEqual([step, expect.any(String)]);
    }
  });
});

/** An app whose middleware adds `fields` (name, value) in order, behind the writer of answer headers. */
function appAdding(...fields: Array<[ResponseHeaderName, string]>) {
  const app = new Hono<ApiEnv>();
  app.use('*', writeResponseHeaders);
  app.use('*', async (c, next) => {
    for (const [name, value] of fields) addResponseHeader(c, name, value);
    await next();
  });
  return app;
}

describe('answer headers added by middleware', () => {
  it("keep the last value of a field added twice, and join the answer of an in-process call without overriding the answer's own", async () => {
    const app = appAdding(['ratelimit', '"general";r=5;t=60'], ['cache-control', 'no-store'], ['ratelimit', '"general";r=4;t=60']);
    app.get('/', (c) => c.json({ ok: true }));
    app.get('/asset', (c) => c.body('x', 200, { 'cache-control': 'public, max-age=60' }));
    const response = await app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toBe('"general";r=4;t=60');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect((await app.request('/asset')).headers.get('cache-control')).toBe('public, max-age=60');
  });

  it("are on the answers built with them (JSON, 204, problem+json), where the answer's own fields win", async () => {
    const app = appAdding(['cache-control', 'no-store'], ['ratelimit', '"general";r=5;t=60']);
    app.get('/json', (c) => json(c, { ok: true }, 201, { location: '/json/1' }));
    app.get('/cached', (c) => json(c, { ok: true }, 200, { 'cache-control': 'public, max-age=60' }));
    app.get('/empty', (c) => noContent(c));
    app.get('/problem', (c) => problemResponse(c, new ApiError('not-found', 'Nothing here.'), 'https://akker.test/errors'));
    const created = await app.request('/json');
    expect(created.status).toBe(201);
    expect(Object.fromEntries(created.headers)).toEqual({
      'cache-control': 'no-store',
      ratelimit: '"general";r=5;t=60',
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
      location: '/json/1',
    });
    expect(await created.json()).toEqual({ ok: true });
    expect((await app.request('/cached')).headers.get('cache-control')).toBe('public, max-age=60');
    const empty = await app.request('/empty');
    expect(empty.status).toBe(204);
    expect(empty.headers.get('ratelimit')).toBe('"general";r=5;t=60');
    const problem = await app.request('/problem');
    expect(problem.status).toBe(404);
    expect(problem.headers.get('content-type')).toBe('application/problem+json');
    expect(problem.headers.get('ratelimit')).toBe('"general";r=5;t=60');
  });
});
