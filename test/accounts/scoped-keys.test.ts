// Keys that hold less than their owner: read-only keys, keys limited to some farms, what creating one
// checks, and that a key never holds what its owner has lost (on the next request, on every process).
import { sql } from 'drizzle-orm';
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
import { queryRows } from '../../src/db/client.js';
import type { App } from '../../src/app/app.js';
import { rectangle } from '../helpers/fixtures.js';

/** Creates a key with the session of `account`; the response as it came. */
const postKey = (app: App, account: Account, body: Record<string, unknown>) =>
  Promise.resolve(
    app.request('/api/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'scoped', ...body }),
      headers: { 'content-type': 'application/json', cookie: account.cookie },
    }),
  );

async function scopedKey(app: App, account: Account, body: Record<string, unknown>) {
  const response = await postKey(app, account, body);
  if (response.status !== 201) throw new Error(`key creation failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; key: string; access: string; farms: string[] | null };
}

const share = (app: App, owner: Account, farm: string, email: string, role: string) =>
  call(app, owner.key, 'PUT', `/api/farms/${farm}/access`, { email, role });

const withoutIds = ({ error_id, instance, ...rest }: Record<string, unknown>) => (void error_id, void instance, rest);

describe.each(storageKinds)('scoped API keys on %s', (kind) => {
  let t: TestApp;
  let owner: Account;
  let neighbour: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await signUpWithKey(t.app);
    neighbour = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  const keyCount = async () =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from api_keys where user_id = ${owner.userId}`))[0]!.n;

  it('stores access and farms with the key and shows them in every answer of key metadata', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const created = await scopedKey(t.app, owner, { access: 'read', farms: [farm] });
    expect(created).toMatchObject({ access: 'read', farms: [farm] });
    const plain = await scopedKey(t.app, owner, {});
    expect(plain).toMatchObject({ access: 'write', farms: null });
    const listed = (await (await t.app.request('/api/keys?limit=200', { headers: { cookie: owner.cookie } })).json()) as {
      data: Array<{ id: string; access: string; farms: string[] | null }>;
    };
    expect(listed.data.find((key) => key.id === created.id)).toMatchObject({ access: 'read', farms: [farm] });
    expect(listed.data.find((key) => key.id === plain.id)).toMatchObject({ access: 'write', farms: null });
  });

  it('refuses a farm the owner has no role on with 422, the same whether it exists or not, and stores nothing', async () => {
    const own = (await createFarm(t.app, owner.key)).b_id_farm;
    const foreign = (await createFarm(t.app, neighbour.key)).b_id_farm;
    const before = await keyCount();
    const toForeign = await expectProblem(await postKey(t.app, owner, { farms: [own, foreign] }), 422, 'unprocessable-entity');
    const toNothing = await expectProblem(
      await postKey(t.app, owner, { farms: [own, 'no-such-farm-id-0000'] }),
      422,
      'unprocessable-entity',
    );
    expect(toForeign.errors).toEqual([{ field: 'farms.1', message: 'is not a farm you have a role on' }]);
    expect(withoutIds(toForeign)).toEqual(withoutIds(toNothing));
    // The most a key may name, none of them the owner's: a bounded answer.
    const many = await expectProblem(
      await postKey(t.app, owner, { farms: Array.from({ length: 100 }, (_, i) => `${'x'.repeat(90)}${i}`) }),
      422,
      'unprocessable-entity',
    );
    expect((many.errors as unknown[]).length).toBe(20);
    expect(many.errors_omitted).toBe(80);
    expect(await keyCount()).toBe(before);
  });

  it('refuses a malformed scope with 400: no farms, more than 100, a farm twice, an unknown access', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const before = await keyCount();
    const fieldsOf = async (body: Record<string, unknown>) =>
      ((await expectProblem(await postKey(t.app, owner, body), 400, 'validation-failed')).errors as Array<{ field: string }>).map(
        (e) => e.field,
      );
    expect(await fieldsOf({ farms: [] })).toEqual(['farms']);
    expect(await fieldsOf({ farms: Array.from({ length: 101 }, () => farm) })).toContain('farms');
    expect(await fieldsOf({ farms: [farm, farm] })).toEqual(['farms']);
    expect(await fieldsOf({ farms: farm })).toEqual(['farms']);
    expect(await fieldsOf({ farms: [''] })).toEqual(['farms.0']);
    expect(await fieldsOf({ access: 'admin' })).toEqual(['access']);
    expect(await fieldsOf({ access: null })).toEqual(['access']);
    expect(await keyCount()).toBe(before);
  });

  it('lists only the farms of a farm-limited key, counted alone, page by page', async () => {
    const [a, b, c] = [await createFarm(t.app, owner.key), await createFarm(t.app, owner.key), await createFarm(t.app, owner.key)];
    const { key } = await scopedKey(t.app, owner, { farms: [c!.b_id_farm, a!.b_id_farm] });
    const page = async (query: string) =>
      (await (await call(t.app, key, 'GET', `/api/farms${query}`)).json()) as {
        data: Array<{ b_id_farm: string }>;
        pagination: { total: number };
      };
    const all = await page('');
    expect(all.data.map((farm) => farm.b_id_farm)).toEqual([a!.b_id_farm, c!.b_id_farm]);
    expect(all.pagination.total).toBe(2);
    expect((await page('?limit=1')).data.map((farm) => farm.b_id_farm)).toEqual([a!.b_id_farm]);
    expect((await page('?limit=1&offset=1')).data.map((farm) => farm.b_id_farm)).toEqual([c!.b_id_farm]);
    await expectProblem(await call(t.app, key, 'GET', `/api/farms/${b!.b_id_farm}`), 404, 'not-found');
    await expectProblem(await call(t.app, key, 'GET', `/api/farms/${b!.b_id_farm}/changes`), 404, 'not-found');
    expect((await call(t.app, key, 'GET', `/api/farms/${a!.b_id_farm}/changes`)).status).toBe(200);
  });

  it('never lets a scoped key through on a role remembered for the farm: by another key, or before a change', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const other = (await createFarm(t.app, owner.key)).b_id_farm;
    const readOnly = await scopedKey(t.app, owner, { access: 'read' });
    const limited = await scopedKey(t.app, owner, { farms: [other] });
    // The owner's full key, and the read-only key, each have their role on the farm remembered now.
    for (let i = 0; i < 3; i++) {
      expect((await call(t.app, owner.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
      expect((await call(t.app, readOnly.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
      await expectProblem(await call(t.app, limited.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    }
    await expectProblem(await call(t.app, readOnly.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'By a read key' }), 403, 'forbidden');
    await expectProblem(await call(t.app, readOnly.key, 'DELETE', `/api/farms/${farm}`), 403, 'forbidden');
    await expectProblem(
      await call(t.app, limited.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'By another farm' }),
      404,
      'not-found',
    );
    expect(((await (await call(t.app, owner.key, 'GET', `/api/farms/${farm}`)).json()) as { b_name_farm: string }).b_name_farm).toBe(
      'De Hoeve',
    );
  });

  it('loses a farm its owner loses, on the very next request, though the key names it still', async () => {
    const farm = (await createFarm(t.app, neighbour.key)).b_id_farm;
    expect((await share(t.app, neighbour, farm, owner.email, 'advisor')).status).toBe(200);
    const { key } = await scopedKey(t.app, owner, { farms: [farm] });
    for (let i = 0; i < 3; i++) expect((await call(t.app, key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    expect((await call(t.app, key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'By the advisor' })).status).toBe(200);
    // Demoted: the key writes no more, though it is a write key.
    expect((await share(t.app, neighbour, farm, owner.email, 'researcher')).status).toBe(200);
    await expectProblem(await call(t.app, key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'x' }), 403, 'forbidden');
    expect((await call(t.app, neighbour.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(owner.email)}`)).status).toBe(204);
    await expectProblem(await call(t.app, key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    await expectProblem(await call(t.app, key, 'GET', `/api/farms/${farm}/changes`), 404, 'not-found');
    const listed = (await (await call(t.app, key, 'GET', '/api/farms')).json()) as { data: unknown[]; pagination: { total: number } };
    expect(listed).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it('never replays to a scoped key the stored answer of a wider key under the same Idempotency-Key', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const other = (await createFarm(t.app, owner.key)).b_id_farm;
    const readOnly = await scopedKey(t.app, owner, { access: 'read' });
    const limited = await scopedKey(t.app, owner, { farms: [other] });
    const body = JSON.stringify({ b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01' });
    const send = (key: string) =>
      t.app.request(`/api/farms/${farm}/fields`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': 'field-1' },
      });
    expect((await send(owner.key)).status).toBe(201);
    for (const key of [readOnly.key, limited.key]) {
      const answer = await send(key);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      await expectProblem(answer, 422, 'idempotency-key-reused');
    }
    expect((await send(owner.key)).headers.get('idempotent-replayed')).toBe('true');
  });

  it("refuses a read-only key the drop of its user's own role, which any role may do", async () => {
    const farm = (await createFarm(t.app, neighbour.key)).b_id_farm;
    expect((await share(t.app, neighbour, farm, owner.email, 'researcher')).status).toBe(200);
    const readOnly = await scopedKey(t.app, owner, { access: 'read' });
    const own = `/api/farms/${farm}/access/${encodeURIComponent(owner.email)}`;
    await expectProblem(await call(t.app, readOnly.key, 'DELETE', own), 403, 'forbidden');
    expect((await call(t.app, readOnly.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    expect((await call(t.app, owner.key, 'DELETE', own)).status).toBe(204);
  });

  it('loses a farm reached through an organisation once its user leaves the organisation, and its portfolio farms are its own', async () => {
    const org = (await (await call(t.app, neighbour.key, 'POST', '/api/organisations', { name: 'Advisers' })).json()) as { id: string };
    expect(
      (await call(t.app, neighbour.key, 'PUT', `/api/organisations/${org.id}/members`, { email: owner.email, role: 'member' })).status,
    ).toBe(200);
    const shared = (await createFarm(t.app, neighbour.key)).b_id_farm;
    const alsoShared = (await createFarm(t.app, neighbour.key)).b_id_farm;
    for (const farm of [shared, alsoShared]) {
      const granted = await call(t.app, neighbour.key, 'PUT', `/api/farms/${farm}/access`, { organisation: org.id, role: 'advisor' });
      expect(granted.status).toBe(200);
    }
    const { key } = await scopedKey(t.app, owner, { farms: [shared] });
    const listed = (await (await call(t.app, key, 'GET', `/api/farms?organisation=${org.id}`)).json()) as {
      data: Array<{ b_id_farm: string; role: string }>;
      pagination: { total: number };
    };
    expect(listed.data.map((farm) => [farm.b_id_farm, farm.role])).toEqual([[shared, 'advisor']]);
    expect(listed.pagination.total).toBe(1);
    await expectProblem(await call(t.app, key, 'GET', `/api/farms/${alsoShared}`), 404, 'not-found');
    // A farm-limited key changes no organisation: a member it added would reach every farm shared with it.
    await expectProblem(
      await call(t.app, key, 'PUT', `/api/organisations/${org.id}/members`, { email: neighbour.email, role: 'member' }),
      403,
      'forbidden',
    );
    for (let i = 0; i < 3; i++) expect((await call(t.app, key, 'GET', `/api/farms/${shared}`)).status).toBe(200);
    expect((await call(t.app, owner.key, 'DELETE', `/api/organisations/${org.id}/members/${encodeURIComponent(owner.email)}`)).status).toBe(
      204,
    );
    await expectProblem(await call(t.app, key, 'GET', `/api/farms/${shared}`), 404, 'not-found');
    expect(((await (await call(t.app, key, 'GET', '/api/farms')).json()) as { pagination: { total: number } }).pagination.total).toBe(0);
  });

  it('refuses key management and new farms to every scoped key, so none makes itself a wider key', async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const before = await keyCount();
    for (const scope of [{ access: 'read' }, { farms: [farm] }, { access: 'read', farms: [farm] }]) {
      const { key, id } = await scopedKey(t.app, owner, scope);
      await expectProblem(await call(t.app, key, 'POST', '/api/keys', { name: 'wider' }), 403, 'forbidden');
      await expectProblem(await call(t.app, key, 'GET', '/api/keys'), 403, 'forbidden');
      await expectProblem(await call(t.app, key, 'DELETE', `/api/keys/${id}`), 403, 'forbidden');
      await expectProblem(await call(t.app, key, 'POST', '/api/farms', { b_name_farm: 'New' }), 403, 'forbidden');
    }
    expect(await keyCount()).toBe(before + 3);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('scoped API keys on two processes sharing PostgreSQL', () => {
  it('a farm-limited key loses the farm its owner loses on the next request to the other process', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const owner = await signUpWithKey(a.app);
      const colleague = await signUpWithKey(a.app);
      const farm = (await createFarm(a.app, owner.key)).b_id_farm;
      expect((await share(a.app, owner, farm, colleague.email, 'advisor')).status).toBe(200);
      const { key } = await scopedKey(a.app, colleague, { farms: [farm], access: 'read' });
      // Process B remembers the key, and its role on the farm.
      for (let i = 0; i < 3; i++) expect((await call(b.app, key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
      await expectProblem(await call(b.app, key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'x' }), 403, 'forbidden');
      expect((await call(a.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(colleague.email)}`)).status).toBe(204);
      await expectProblem(await call(b.app, key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    });
  });
});
