// The API's checks run inside each /api route's first handler (http/api-mount.ts); a route mounted
// without them would skip authentication, so the app refuses to start with one.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { assertApiRoutesChecked, withApiChecks } from '../../src/http/api-mount.js';
import type { Check } from '../../src/http/context.js';

const refuseAll: Check = () => {
  throw new Error('refused by the checks');
};

describe('API routes and their checks', () => {
  it('refuses an app with an /api route mounted without the checks', () => {
    const app = new Hono();
    app.route(
      '/',
      withApiChecks(
        new Hono().get('/api/checked', (c) => c.text('ok')),
        refuseAll,
      ),
    );
    app.route(
      '/',
      new Hono().get('/api/unchecked', (c) => c.text('ok')),
    );
    expect(() => assertApiRoutesChecked(app)).toThrow("GET /api/unchecked is served without the API's checks");
  });

  it('runs the checks before every handler of a route, and leaves routes outside /api alone', async () => {
    const routes = new Hono()
      .post(
        '/api/things',
        (_c, next) => next(),
        (c) => c.text('created', 201),
      )
      .get('/health', (c) => c.text('ok'));
    const app = new Hono().route('/', withApiChecks(routes, refuseAll));
    app.onError((error, c) => c.text(error.message, 500));
    expect(() => assertApiRoutesChecked(app)).not.toThrow();
    const refused = await app.request('/api/things', { method: 'POST' });
    expect([refused.status, await refused.text()]).toEqual([500, 'refused by the checks']);
    expect((await app.request('/health')).status).toBe(200);
  });

  it('answers with what the route answers once the checks let it through', async () => {
    const passing: Check = (_c, next) => next();
    const app = new Hono().route(
      '/',
      withApiChecks(
        new Hono().get('/api/thing', (c) => c.json({ a: 1 }, 202)),
        passing,
      ),
    );
    const answer = await app.request('/api/thing');
    expect([answer.status, await answer.json()]).toEqual([202, { a: 1 }]);
  });
});
