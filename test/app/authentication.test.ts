// Authentication: exactly one key header; the same 401 for every bad key; revocation and expiry at once.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createFarm,
  expectProblem,
  signUpWithKey,
  startTestApp,
  withTwoProcessesOnPostgres,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createField, rectangle } from '../helpers/fixtures.js';

const withoutErrorId = (body: Record<string, unknown>) => ({ ...body, error_id: undefined });

describe.each(storageKinds)('authentication on %s', (kind) => {
  let t: TestApp;
  let user: Account;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  it.each([
    ['in X-API-Key', (key: string) => ({ 'x-api-key': key })],
    ['as Authorization: Bearer', (key: string) => ({ authorization: `Bearer ${key}` })],
  ])('accepts the key %s: the farm list of its user', async (_, headers) => {
    const response = await t.app.request('/api/farms', { headers: headers(user.key) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it('answers both headers with 400 ambiguous-api-key', async () => {
    const response = await t.app.request('/api/farms', { headers: { 'x-api-key': user.key, authorization: `Bearer ${user.key}` } });
    await expectProblem(response, 400, 'ambiguous-api-key');
  });

  it('answers missing, malformed, unknown, revoked and expired keys with the same 401', async () => {
    const revoked = await signUpWithKey(t.app);
    expect((await call(t.app, revoked.key, 'DELETE', `/api/keys/${revoked.keyId}`)).status).toBe(204);
    const expired = await signUpWithKey(t.app);
    await t.database.db.execute(sql`update api_keys set expires_at = now() - interval '1 second' where key_id = ${expired.keyId}`);
    t.deps.keys.forget(expired.keyId);

    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-api-key': 'not-a-key' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { 'x-api-key': `akk_${'A'.repeat(43)}` },
      { 'x-api-key': revoked.key },
      { authorization: `Bearer ${expired.key}` },
    ];
    const bodies = [];
    for (const headers of attempts) {
      const response = await t.app.request('/api/farms', { headers });
      bodies.push(withoutErrorId(await expectProblem(response, 401, 'unauthorized')));
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="akker"');
    }
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it('rejects a revoked key on the very next request', async () => {
    const account = await signUpWithKey(t.app);
    expect((await call(t.app, account.key, 'GET', '/api/farms')).status).toBe(200);
    expect((await t.app.request(`/api/keys/${account.keyId}`, { method: 'DELETE', headers: { cookie: account.cookie } })).status).toBe(204);
    await expectProblem(await call(t.app, account.key, 'GET', '/api/farms'), 401, 'unauthorized');
  });

  it('rejects a key the moment it expires', async () => {
    const account = await signUpWithKey(t.app);
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const created = await t.app.request('/api/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'short-lived', expires_at: expiresAt }),
      headers: { 'content-type': 'application/json', cookie: account.cookie },
    });
    const { key } = (await created.json()) as { key: string };
    expect((await call(t.app, key, 'GET', '/api/farms')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 20));
    await expectProblem(await call(t.app, key, 'GET', '/api/farms'), 401, 'unauthorized');
  });

  it('gives the key the access of its user: another user sees none of their farms', async () => {
    const owner = await signUpWithKey(t.app);
    const farm = await createFarm(t.app, owner.key);
    const stranger = await signUpWithKey(t.app);
    await expectProblem(await call(t.app, stranger.key, 'GET', `/api/farms/${farm.b_id_farm}`), 404, 'not-found');
    expect(((await (await call(t.app, stranger.key, 'GET', '/api/farms')).json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('does not accept a session cookie for the farm endpoints', async () => {
    await expectProblem(await t.app.request('/api/farms', { headers: { cookie: user.cookie } }), 401, 'unauthorized');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('revocation across processes sharing PostgreSQL', () => {
  it('refuses the key in a second process on its very next request, on reads and on writes', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const account = await signUpWithKey(a.app);
      const farm = await createFarm(a.app, account.key);
      // Process B now remembers the key and, from the second read (the first to re-check the key it
      // remembers), the key's role on the farm: the third read is served from that memory.
      for (let read = 1; read <= 3; read++) {
        expect((await call(b.app, account.key, 'GET', `/api/farms/${farm.b_id_farm}`)).status).toBe(200);
      }
      expect((await call(b.app, account.key, 'GET', '/api/farms')).status).toBe(200);
      expect((await call(a.app, account.key, 'DELETE', `/api/keys/${account.keyId}`)).status).toBe(204);
      await expectProblem(await call(b.app, account.key, 'GET', `/api/farms/${farm.b_id_farm}`), 401, 'unauthorized');
      await expectProblem(await call(b.app, account.key, 'GET', '/api/farms'), 401, 'unauthorized');
      await expectProblem(await call(b.app, account.key, 'GET', '/api/farms/unknown'), 401, 'unauthorized');
      await expectProblem(await call(b.app, account.key, 'GET', '/api/farms?limit=500'), 401, 'unauthorized');
      await expectProblem(
        await call(b.app, account.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: 'x' }),
        401,
        'unauthorized',
      );
    });
  });

  it('refuses a write served on a remembered key revoked elsewhere, and changes nothing: each kind of write, and a calculation', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const account = await signUpWithKey(a.app);
      const farmId = (await createFarm(a.app, account.key, { b_name_farm: 'De Hoeve' })).b_id_farm;
      const fieldId = (await createField(a.app, account.key, farmId)).b_id;
      const writes: Array<[string, string, unknown?]> = [
        ['PATCH', `/api/farms/${farmId}`, { b_name_farm: 'Changed' }],
        ['POST', `/api/farms/${farmId}/fields`, { b_name: 'New', b_geometry: rectangle(), b_start: '2024-01-01' }],
        ['POST', `/api/fields/${fieldId}/soil-analyses`, { a_som_loi: 3, b_sampling_date: '2025-02-01' }],
        ['DELETE', `/api/fields/${fieldId}`],
        ['POST', `/api/fields/${fieldId}/calculations/nitrogen-balance`, { start: '2025-01-01', end: '2025-12-31' }],
      ];
      const stored = async () =>
        (
          await a.database.db.execute(sql`select
            (select b_name_farm from farms where b_id_farm = ${farmId}) as farm_name,
            (select count(*)::int from fields where b_id_farm = ${farmId}) as fields,
            (select count(*)::int from soil_analyses where b_id = ${fieldId}) as analyses,
            (select count(*)::int from audit_log where b_id_farm = ${farmId}) as audit,
            (select count(*)::int from farm_changes where b_id_farm = ${farmId}) as changes`)
        ).rows[0];
      const before = await stored();
      for (const [method, path, body] of writes) {
        // Process B remembers the key (its read confirmed it), then process A revokes it; B's next request is the write.
        expect((await call(b.app, account.key, 'GET', `/api/farms/${farmId}`)).status).toBe(200);
        expect((await call(b.app, account.key, 'GET', `/api/farms/${farmId}`)).status).toBe(200);
        expect((await call(a.app, account.key, 'DELETE', `/api/keys/${account.keyId}`)).status).toBe(204);
        await expectProblem(await call(b.app, account.key, method, path, body), 401, 'unauthorized');
        const next = await a.app.request('/api/keys', {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: account.cookie },
          body: JSON.stringify({ name: 'next' }),
        });
        expect(next.status).toBe(201);
        const created = (await next.json()) as { key: string; id: string };
        account.key = created.key;
        account.keyId = created.id;
      }
      expect(await stored()).toEqual(before);
    });
  });

  it('refuses a key revoked while its first read waited, though that read already held the key as looked up', async () => {
    await withTwoProcessesOnPostgres(async (a, b, url) => {
      const account = await signUpWithKey(a.app);
      const farm = (await createFarm(a.app, account.key)).b_id_farm;
      const read = () => call(b.app, account.key, 'GET', `/api/farms/${farm}`);
      const revoker = new pg.Client({ connectionString: url });
      await revoker.connect();
      try {
        // Process B looks the key up (it is active), then its read of the farm waits on the table, held by a
        // transaction that revokes the key meanwhile. The farm read sees the revocation's access version.
        await revoker.query('begin');
        await revoker.query('lock table farms in access exclusive mode');
        const first = read();
        for (let tries = 0; ; tries++) {
          const { rows } = await revoker.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          );
          if (rows[0]!.n > 0) break;
          if (tries > 200) throw new Error('process B never waited for the farm');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await revoker.query('update api_keys set revoked_at = now() where key_id = $1', [account.keyId]);
        await revoker.query('commit');
        // The read that began before the revocation may still answer; it must not teach B that the key
        // may read the farm at its new version.
        expect((await first).status).toBe(200);
        await expectProblem(await read(), 401, 'unauthorized');
      } finally {
        await revoker.end();
      }
    });
  });
});
