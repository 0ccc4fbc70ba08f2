// Accounts (sign-up, sign-in, sign-out) and key management.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOn, call, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { queryRows } from '../../src/db/client.js';

const post = (t: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

describe.each(storageKinds)('accounts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('signs up with 201 and a session cookie that is HttpOnly, SameSite=Lax and Secure under https', async () => {
    const response = await post(t, '/auth/sign-up', { email: 'Cookie@Example.org', password: 'long enough', name: 'C' });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ email: 'Cookie@Example.org', name: 'C' });
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^akker_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Secure');
  });

  it('leaves Secure off when PUBLIC_URL is http', async () => {
    // Another app on the same database: closing it would close the database of the others.
    const plain = appOn(t.database, { PUBLIC_URL: 'http://localhost:3000' });
    const response = await post(plain, '/auth/sign-up', { email: 'http@example.org', password: 'long enough', name: 'H' });
    expect(response.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('refuses an e-mail address that is taken, compared case-insensitively, with 409', async () => {
    await post(t, '/auth/sign-up', { email: 'taken@example.org', password: 'long enough', name: 'T' });
    await expectProblem(
      await post(t, '/auth/sign-up', { email: 'TAKEN@example.org', password: 'long enough', name: 'T' }),
      409,
      'conflict',
    );
  });

  it('refuses a password under 8 characters, a bad e-mail and unknown properties with 400', async () => {
    const body = await expectProblem(
      await post(t, '/auth/sign-up', { email: 'nope', password: 'short', name: 'S', admin: true }),
      400,
      'validation-failed',
    );
    expect((body.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(['admin', 'email', 'password']);
  });

  it('signs in with 200 and a session; a wrong password or unknown e-mail gets 401', async () => {
    await post(t, '/auth/sign-up', { email: 'signin@example.org', password: 'right password', name: 'S' });
    const ok = await post(t, '/auth/sign-in', { email: 'SIGNIN@example.org', password: 'right password' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toMatch(/^akker_session=/);
    await expectProblem(await post(t, '/auth/sign-in', { email: 'signin@example.org', password: 'wrong password' }), 401, 'unauthorized');
    await expectProblem(await post(t, '/auth/sign-in', { email: 'nobody@example.org', password: 'wrong password' }), 401, 'unauthorized');
  });

  it('signs out with 204 and the session stops working at once', async () => {
    const account = await signUpWithKey(t.app);
    const out = await t.app.request('/auth/sign-out', { method: 'POST', headers: { cookie: account.cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^akker_session=;/);
    await expectProblem(await t.app.request('/api/keys', { headers: { cookie: account.cookie } }), 401, 'unauthorized');
  });

  it('keeps sign-up closed when SIGNUP=closed', async () => {
    const closed = appOn(t.database, { SIGNUP: 'closed' });
    await expectProblem(
      await post(closed, '/auth/sign-up', { email: 'x@example.org', password: 'long enough', name: 'X' }),
      403,
      'forbidden',
    );
  });
});

describe.each(storageKinds)('key management on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  it('creates a key: akk_ plus 43 URL-safe characters, prefix of 12, shown once, only a hash stored', async () => {
    const response = await post(t, '/api/keys', { name: 'ci' }, { cookie: user.cookie });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    const created = (await response.json()) as Record<string, string | null>;
    expect(Object.keys(created).sort()).toEqual([
      'access',
      'created_at',
      'expires_at',
      'farms',
      'id',
      'key',
      'last_used_at',
      'name',
      'prefix',
    ]);
    expect(created.key).toMatch(/^akk_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key!.slice(0, 12));
    expect(created).toMatchObject({ name: 'ci', last_used_at: null, expires_at: null, access: 'write', farms: null });
    const stored = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from api_keys where key_id = ${created.id}`);
    expect(JSON.stringify(stored)).not.toContain(created.key!.slice(4));
    const listed = (await (await t.app.request('/api/keys', { headers: { cookie: user.cookie } })).json()) as {
      data: Array<Record<string, unknown>>;
    };
    expect(listed.data.find((k) => k.id === created.id)).not.toHaveProperty('key');
  });

  it('creates a key with an API key as well as with the session', async () => {
    expect((await call(t.app, user.key, 'POST', '/api/keys', { name: 'by key' })).status).toBe(201);
  });

  it('requires a name and a future expires_at (400)', async () => {
    await expectProblem(await post(t, '/api/keys', {}, { cookie: user.cookie }), 400, 'validation-failed');
    await expectProblem(await post(t, '/api/keys', { name: '  ' }, { cookie: user.cookie }), 400, 'validation-failed');
    const past = await expectProblem(
      await post(t, '/api/keys', { name: 'old', expires_at: '2020-01-01T00:00:00Z' }, { cookie: user.cookie }),
      400,
      'validation-failed',
    );
    expect(past.errors).toEqual([{ field: 'expires_at', message: 'must be in the future' }]);
    await expectProblem(
      await post(t, '/api/keys', { name: 'bad', expires_at: 'tomorrow' }, { cookie: user.cookie }),
      400,
      'validation-failed',
    );
  });

  it('lists only active keys, oldest first, with the pagination envelope', async () => {
    const account = await signUpWithKey(t.app);
    const second = (await (
      await post(t, '/api/keys', { name: 'second', expires_at: '2999-01-01T00:00:00Z' }, { cookie: account.cookie })
    ).json()) as { id: string };
    const third = (await (await post(t, '/api/keys', { name: 'third' }, { cookie: account.cookie })).json()) as { id: string };
    await t.app.request(`/api/keys/${third.id}`, { method: 'DELETE', headers: { cookie: account.cookie } });
    const expiring = (await (await post(t, '/api/keys', { name: 'expired' }, { cookie: account.cookie })).json()) as { id: string };
    await t.database.db.execute(sql`update api_keys set expires_at = now() - interval '1 minute' where key_id = ${expiring.id}`);

    const response = await t.app.request('/api/keys', { headers: { cookie: account.cookie } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Array<{ id: string; expires_at: string | null }>; pagination: unknown };
    expect(body.data.map((k) => k.id)).toEqual([account.keyId, second.id]);
    expect(body.data[1]!.expires_at).toBe('2999-01-01T00:00:00.000Z');
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    const page = (await (await t.app.request('/api/keys?limit=1&offset=1', { headers: { cookie: account.cookie } })).json()) as {
      data: Array<{ id: string }>;
    };
    expect(page.data.map((k) => k.id)).toEqual([second.id]);
  });

  it('records last_used_at when a key is used', async () => {
    const account = await signUpWithKey(t.app);
    const before = Date.now();
    await call(t.app, account.key, 'GET', '/api/farms');
    // The use is recorded off the request's path, so on a server with a pool it may land a moment later.
    let lastUsed: string | null = null;
    for (let attempt = 0; attempt < 50 && lastUsed === null; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const listed = (await (await t.app.request('/api/keys', { headers: { cookie: account.cookie } })).json()) as {
        data: Array<{ last_used_at: string | null }>;
      };
      lastUsed = listed.data[0]!.last_used_at;
    }
    expect(Date.parse(lastUsed!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("responds 404 to revoking another user's key, an unknown key, or a key revoked already", async () => {
    const other = await signUpWithKey(t.app);
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/keys/${other.keyId}`), 404, 'not-found');
    expect((await call(t.app, other.key, 'GET', '/api/farms')).status).toBe(200);
    await expectProblem(await call(t.app, user.key, 'DELETE', '/api/keys/unknown'), 404, 'not-found');
    expect((await call(t.app, other.key, 'DELETE', `/api/keys/${other.keyId}`)).status).toBe(204);
    await expectProblem(
      await t.app.request(`/api/keys/${other.keyId}`, { method: 'DELETE', headers: { cookie: other.cookie } }),
      404,
      'not-found',
    );
  });

  it('refuses a cookie-authenticated write from another site (Origin check)', async () => {
    await expectProblem(
      await post(t, '/api/keys', { name: 'x' }, { cookie: user.cookie, origin: 'https://evil.example' }),
      403,
      'forbidden',
    );
    expect((await post(t, '/api/keys', { name: 'x' }, { cookie: user.cookie, origin: 'https://akker.test' })).status).toBe(201);
  });

  it('needs a session or a key', async () => {
    await expectProblem(await t.app.request('/api/keys'), 401, 'unauthorized');
  });
});
