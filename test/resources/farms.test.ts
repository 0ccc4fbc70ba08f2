// Farms: the five endpoints, paging, ownership and hard delete.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { queryRows } from '../../src/db/client.js';

interface Page {
  data: Array<{ b_id_farm: string; b_name_farm: string }>;
  pagination: { limit: number; offset: number; total: number };
}

describe.each(storageKinds)('farms on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  it('creates a farm with 201, a Location header and the farm with its b_id_farm', async () => {
    const body = { b_name_farm: 'De Hoeve', b_businessid_farm: '12345678', b_address_farm: 'Dorpsstraat 1', b_postalcode_farm: '6708 PB' };
    const response = await call(t.app, user.key, 'POST', '/api/farms', body);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    const farm = (await response.json()) as Record<string, string>;
    expect(farm).toEqual({
      ...body,
      b_id_farm: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    });
    expect(farm.updated_at).toBe(farm.created_at);
    expect(response.headers.get('location')).toBe(`/api/farms/${farm.b_id_farm}`);
    const fetched = await call(t.app, user.key, 'GET', response.headers.get('location')!);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(farm);
  });

  it('makes the creator the owner', async () => {
    const farm = await createFarm(t.app, user.key);
    const roles = await queryRows<{ user_id: string; role: string }>(
      t.database.db,
      sql`select user_id, role from farm_access where b_id_farm = ${farm.b_id_farm}`,
    );
    expect(roles).toEqual([{ user_id: user.userId, role: 'owner' }]);
  });

  it('requires a non-empty b_name_farm; the other fields are optional', async () => {
    const missing = await expectProblem(await call(t.app, user.key, 'POST', '/api/farms', {}), 400, 'validation-failed');
    expect(missing.errors).toEqual([{ field: 'b_name_farm', message: 'is required' }]);
    await expectProblem(await call(t.app, user.key, 'POST', '/api/farms', { b_name_farm: '   ' }), 400, 'validation-failed');
    const minimal = await call(t.app, user.key, 'POST', '/api/farms', { b_name_farm: 'Minimal' });
    expect(await minimal.json()).toMatchObject({
      b_name_farm: 'Minimal',
      b_businessid_farm: null,
      b_address_farm: null,
      b_postalcode_farm: null,
    });
  });

  it('refuses unknown and ill-typed body properties with 400 naming them', async () => {
    const body = await expectProblem(
      await call(t.app, user.key, 'POST', '/api/farms', { b_name_farm: 'x', b_area: 3, b_postalcode_farm: 12 }),
      400,
      'validation-failed',
    );
    expect((body.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(['b_area', 'b_postalcode_farm']);
  });

  it('lists exactly the farms of the key owner, oldest first, with the envelope', async () => {
    const account = await signUpWithKey(t.app);
    const names = ['one', 'two', 'three'];
    const created = [];
    for (const name of names) created.push(await createFarm(t.app, account.key, { b_name_farm: name }));
    await createFarm(t.app, user.key, { b_name_farm: 'not theirs' });
    const response = await call(t.app, account.key, 'GET', '/api/farms');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const page = (await response.json()) as Page;
    expect(page.data.map((f) => f.b_id_farm)).toEqual(created.map((f) => f.b_id_farm));
    expect(Object.keys(page.data[0]!).sort()).toEqual([
      'b_address_farm',
      'b_businessid_farm',
      'b_id_farm',
      'b_name_farm',
      'b_postalcode_farm',
      'created_at',
      'role',
      'updated_at',
    ]);
    expect(page.data.map((f) => (f as { role?: string }).role)).toEqual(['owner', 'owner', 'owner']);
    expect(page.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
  });

  it('pages with limit and offset in creation order', async () => {
    const account = await signUpWithKey(t.app);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await createFarm(t.app, account.key, { b_name_farm: `farm ${i}` })).b_id_farm);
    const page = (await (await call(t.app, account.key, 'GET', '/api/farms?limit=2&offset=1')).json()) as Page;
    expect(page.data.map((f) => f.b_id_farm)).toEqual(ids.slice(1, 3));
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 5 });
    const beyond = (await (await call(t.app, account.key, 'GET', '/api/farms?offset=1000000000')).json()) as Page;
    expect(beyond).toEqual({ data: [], pagination: { limit: 50, offset: 1_000_000_000, total: 5 } });
    const max = (await (await call(t.app, account.key, 'GET', '/api/farms?limit=200')).json()) as Page;
    expect(max.pagination.limit).toBe(200);
  });

  it.each(['limit=0', 'limit=201', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x'])('refuses %s with 400', async (query) => {
    const body = await expectProblem(await call(t.app, user.key, 'GET', `/api/farms?${query}`), 400, 'validation-failed');
    expect((body.errors as Array<{ field: string }>)[0]!.field).toBe(query.split('=')[0]);
  });

  it('updates any subset with PATCH and answers 200 with the farm', async () => {
    const farm = await createFarm(t.app, user.key, { b_name_farm: 'Before', b_address_farm: 'Street 1' });
    const response = await call(t.app, user.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_postalcode_farm: '1234 AB' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      b_id_farm: farm.b_id_farm,
      b_name_farm: 'Before',
      b_businessid_farm: null,
      b_address_farm: 'Street 1',
      b_postalcode_farm: '1234 AB',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const cleared = await call(t.app, user.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: 'After', b_address_farm: null });
    expect(await cleared.json()).toMatchObject({ b_name_farm: 'After', b_address_farm: null, b_postalcode_farm: '1234 AB' });
    const unchanged = await call(t.app, user.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, {});
    expect(await unchanged.json()).toMatchObject({ b_name_farm: 'After' });
  });

  it('refuses a PATCH that empties the name or adds unknown properties, and changes nothing', async () => {
    const farm = await createFarm(t.app, user.key, { b_name_farm: 'Keep' });
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: null }),
      400,
      'validation-failed',
    );
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: 'x', b_id_farm: 'y' }),
      400,
      'validation-failed',
    );
    expect(await (await call(t.app, user.key, 'GET', `/api/farms/${farm.b_id_farm}`)).json()).toMatchObject({ b_name_farm: 'Keep' });
  });

  it('hard deletes with 204; then GET, PATCH and a repeated DELETE answer 404', async () => {
    const farm = await createFarm(t.app, user.key);
    const response = await call(t.app, user.key, 'DELETE', `/api/farms/${farm.b_id_farm}`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectProblem(await call(t.app, user.key, 'GET', `/api/farms/${farm.b_id_farm}`), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: 'x' }), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/farms/${farm.b_id_farm}`), 404, 'not-found');
    const left = await queryRows<{ n: number }>(
      t.database.db,
      sql`select (select count(*) from farms where b_id_farm = ${farm.b_id_farm}) + (select count(*) from farm_access where b_id_farm = ${farm.b_id_farm}) as n`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });

  it("answers 404 for another user's farm on every endpoint, and changes nothing", async () => {
    const farm = await createFarm(t.app, user.key, { b_name_farm: 'Private' });
    const stranger = await signUpWithKey(t.app);
    await expectProblem(await call(t.app, stranger.key, 'GET', `/api/farms/${farm.b_id_farm}`), 404, 'not-found');
    await expectProblem(
      await call(t.app, stranger.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: 'Mine' }),
      404,
      'not-found',
    );
    await expectProblem(await call(t.app, stranger.key, 'DELETE', `/api/farms/${farm.b_id_farm}`), 404, 'not-found');
    expect(await (await call(t.app, user.key, 'GET', `/api/farms/${farm.b_id_farm}`)).json()).toMatchObject({ b_name_farm: 'Private' });
  });

  it('answers a very long or encoded identifier with 404', async () => {
    await expectProblem(await call(t.app, user.key, 'GET', `/api/farms/${'x'.repeat(10_000)}`), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'GET', '/api/farms/a%2Fb'), 404, 'not-found');
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await t.app.request('/api/farms', { method: 'HEAD', headers: { 'x-api-key': user.key } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});
