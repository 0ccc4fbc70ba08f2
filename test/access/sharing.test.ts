// Sharing a farm: roles by e-mail, at least one owner, effect on the next request, audit trail.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteLapsedAccess } from '../../src/accounts/pending-access.js';
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
import { createField } from '../helpers/fixtures.js';

describe.each(storageKinds)('sharing on %s', (kind) => {
  let t: TestApp;
  let owner: Account;
  let colleague: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await signUpWithKey(t.app);
    colleague = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  const share = (farmId: string, email: string, role: string, by = owner) =>
    call(t.app, by.key, 'PUT', `/api/farms/${farmId}/access`, { email, role });

  it('grants a role by e-mail (any case); it works, changes and ends on the very next request', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await expectProblem(await call(t.app, colleague.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');

    const granted = await share(farm, colleague.email.toUpperCase(), 'advisor');
    expect(granted.status).toBe(200);
    expect(await granted.json()).toEqual({ email: colleague.email.toUpperCase(), role: 'advisor' });
    expect((await call(t.app, colleague.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'By the advisor' })).status).toBe(200);

    expect((await share(farm, colleague.email, 'researcher')).status).toBe(200);
    await expectProblem(await call(t.app, colleague.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'x' }), 403, 'forbidden');
    expect((await call(t.app, colleague.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);

    expect((await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(colleague.email)}`)).status).toBe(204);
    await expectProblem(await call(t.app, colleague.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    await expectProblem(
      await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(colleague.email)}`),
      404,
      'not-found',
    );
  });

  it('lists who has which role', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await share(farm, colleague.email, 'researcher');
    const response = await call(t.app, owner.key, 'GET', `/api/farms/${farm}/access`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: [
        { email: owner.email, role: 'owner' },
        { email: colleague.email, role: 'researcher' },
      ],
      pagination: { limit: 50, offset: 0, total: 2 },
    });
  });

  it('answers an address nobody signed up with exactly like any other; its role waits for the sign-up', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const address = `later-${Date.now()}@example.org`;
    const pending = await share(farm, address, 'advisor');
    const known = await share(farm, colleague.email, 'advisor');
    expect([pending.status, known.status]).toEqual([200, 200]);
    expect(Object.keys((await pending.json()) as object)).toEqual(Object.keys((await known.json()) as object));
    expect(await (await share(farm, address.toUpperCase(), 'researcher')).json()).toEqual({
      email: address.toUpperCase(),
      role: 'researcher',
    });
    const listed = (await (await call(t.app, owner.key, 'GET', `/api/farms/${farm}/access`)).json()) as { data: unknown[] };
    expect(listed.data).toEqual([
      { email: owner.email, role: 'owner' },
      { email: address, role: 'researcher' },
      { email: colleague.email, role: 'advisor' },
    ]);

    const later = await signUpWithKey(t.app, address);
    expect((await call(t.app, later.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    await expectProblem(await call(t.app, later.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'x' }), 403, 'forbidden');
    const after = (await (await call(t.app, owner.key, 'GET', `/api/farms/${farm}/access`)).json()) as { data: unknown[] };
    expect(after.data).toEqual(listed.data);
  });

  it('removes a waiting role, and lets a lapsed one go (no sign-up after 30 days)', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const [gone, lapsed] = [`gone-${Date.now()}@example.org`, `lapsed-${Date.now()}@example.org`];
    await share(farm, gone, 'advisor');
    await share(farm, lapsed, 'advisor');
    expect((await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(gone)}`)).status).toBe(204);
    await expectProblem(await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(gone)}`), 404, 'not-found');
    await t.database.db.execute(
      sql`update pending_farm_access set expires_at = now() - interval '1 second' where lower(email) = ${lapsed}`,
    );
    const listed = (await (await call(t.app, owner.key, 'GET', `/api/farms/${farm}/access`)).json()) as { pagination: { total: number } };
    expect(listed.pagination.total).toBe(1);
    expect(await deleteLapsedAccess(t.database.db, 500)).toBeGreaterThanOrEqual(1);
    const latecomer = await signUpWithKey(t.app, lapsed);
    await expectProblem(await call(t.app, latecomer.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
  });

  it('refuses an unknown role (400) and a body with both or neither of email and organisation (400)', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await expectProblem(await share(farm, colleague.email, 'admin'), 400, 'validation-failed');
    const both = { email: colleague.email, organisation: 'x', role: 'advisor' };
    await expectProblem(await call(t.app, owner.key, 'PUT', `/api/farms/${farm}/access`, both), 400, 'validation-failed');
    await expectProblem(await call(t.app, owner.key, 'PUT', `/api/farms/${farm}/access`, { role: 'advisor' }), 400, 'validation-failed');
  });

  it('lets anyone remove their own role, whoever granted it; the last owner still stays', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const reader = await signUpWithKey(t.app);
    await share(farm, reader.email, 'researcher');
    await expectProblem(
      await call(t.app, reader.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(owner.email)}`),
      403,
      'forbidden',
    );
    expect(
      (await call(t.app, reader.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(reader.email.toUpperCase())}`)).status,
    ).toBe(204);
    await expectProblem(await call(t.app, reader.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    await expectProblem(
      await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(owner.email)}`),
      409,
      'conflict',
    );
  });

  it('keeps at least one owner: demoting or removing the last one is 409', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await expectProblem(await share(farm, owner.email, 'advisor'), 409, 'conflict');
    await expectProblem(
      await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(owner.email)}`),
      409,
      'conflict',
    );
    expect((await share(farm, colleague.email, 'owner')).status).toBe(200);
    expect((await share(farm, owner.email, 'advisor')).status).toBe(200);
    await expectProblem(await share(farm, colleague.email, 'advisor', colleague), 409, 'conflict');
    const list = (await (await call(t.app, colleague.key, 'GET', `/api/farms/${farm}/access`)).json()) as { data: unknown[] };
    expect(list.data).toEqual([
      { email: owner.email, role: 'advisor' },
      { email: colleague.email, role: 'owner' },
    ]);
  });

  it('lists only readable farms, and counts only those', async () => {
    const reader = await signUpWithKey(t.app);
    const shared = (await createFarm(t.app, owner.key, { b_name_farm: 'Shared' })).b_id_farm;
    await createFarm(t.app, owner.key, { b_name_farm: 'Private' });
    await share(shared, reader.email, 'researcher');
    const page = (await (await call(t.app, reader.key, 'GET', '/api/farms')).json()) as {
      data: Array<{ b_id_farm: string }>;
      pagination: { total: number };
    };
    expect(page.data.map((f) => f.b_id_farm)).toEqual([shared]);
    expect(page.pagination.total).toBe(1);
  });

  it('loses access to a deleted farm and through a revoked key on the very next request', async () => {
    const advisor = await signUpWithKey(t.app);
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await share(farm, advisor.email, 'advisor');
    expect((await call(t.app, advisor.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    expect((await call(t.app, advisor.key, 'DELETE', `/api/keys/${advisor.keyId}`)).status).toBe(204);
    await expectProblem(await call(t.app, advisor.key, 'GET', `/api/farms/${farm}`), 401, 'unauthorized');

    const other = await signUpWithKey(t.app);
    await share(farm, other.email, 'researcher');
    expect((await call(t.app, other.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    expect((await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}`)).status).toBe(204);
    await expectProblem(await call(t.app, other.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
  });

  it('records every write in the audit trail, which outlives deletes and holds no payloads', async () => {
    const farm = (await createFarm(t.app, owner.key, { b_name_farm: 'Audited' })).b_id_farm;
    await share(farm, colleague.email, 'advisor');
    const field = await createField(t.app, colleague.key, farm, { b_name: 'Secret field name' });
    await call(t.app, colleague.key, 'PATCH', `/api/fields/${field.b_id}`, { b_name: 'Renamed' });
    await call(t.app, colleague.key, 'DELETE', `/api/fields/${field.b_id}`);

    const response = await call(t.app, owner.key, 'GET', `/api/farms/${farm}/audit`);
    expect(response.status).toBe(200);
    const audit = (await response.json()) as { data: Array<Record<string, unknown>>; pagination: { total: number } };
    expect(audit.data.map((e) => [e.action, e.resource_type, e.user_id, e.key_id])).toEqual([
      ['create', 'farm', owner.userId, owner.keyId],
      ['grant', 'access', owner.userId, owner.keyId],
      ['create', 'field', colleague.userId, colleague.keyId],
      ['update', 'field', colleague.userId, colleague.keyId],
      ['delete', 'field', colleague.userId, colleague.keyId],
    ]);
    expect(audit.data[2]!.resource_id).toBe(field.b_id);
    expect(Date.parse(audit.data[4]!.created_at as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(audit)).not.toContain('Secret field name');
    await expectProblem(await call(t.app, colleague.key, 'GET', `/api/farms/${farm}/audit`), 403, 'forbidden');
  });

  it('writes no audit entry for a refused write', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await share(farm, colleague.email, 'researcher');
    await expectProblem(await call(t.app, colleague.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'x' }), 403, 'forbidden');
    await expectProblem(await call(t.app, owner.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: '' }), 400, 'validation-failed');
    const audit = (await (await call(t.app, owner.key, 'GET', `/api/farms/${farm}/audit`)).json()) as { pagination: { total: number } };
    expect(audit.pagination.total).toBe(2);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('role changes across processes sharing PostgreSQL', () => {
  it('act in a second process on its very next request: grant, demotion and revocation', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const owner = await signUpWithKey(a.app);
      const colleague = await signUpWithKey(a.app);
      const farm = (await createFarm(a.app, owner.key)).b_id_farm;
      const read = () => call(b.app, colleague.key, 'GET', `/api/farms/${farm}`);
      const rename = () => call(b.app, colleague.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'From process B' });
      const share = (role: string) => call(a.app, owner.key, 'PUT', `/api/farms/${farm}/access`, { email: colleague.email, role });

      await expectProblem(await read(), 404, 'not-found');
      expect((await share('advisor')).status).toBe(200);
      // The second read is served by the role process B remembers from the first.
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(200);
      expect((await rename()).status).toBe(200);

      expect((await share('researcher')).status).toBe(200);
      await expectProblem(await rename(), 403, 'forbidden');
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(200);

      expect((await call(a.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(colleague.email)}`)).status).toBe(204);
      await expectProblem(await read(), 404, 'not-found');
      const listed = (await (await call(b.app, colleague.key, 'GET', '/api/farms')).json()) as { pagination: { total: number } };
      expect(listed.pagination.total).toBe(0);
    });
  });
});
