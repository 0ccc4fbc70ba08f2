// Conditional requests and record times, over a real socket: every single record answers a strong ETag
// that moves with each change; If-None-Match gives 304; If-Match makes PATCH and DELETE refuse (412)
// when the record changed since, checked atomically with the write.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFarm, expectProblem, signUpWithKey, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { rectangle } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;
const RFC3339_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const STRONG_TAG = /^"[A-Za-z0-9_-]+"$/;

interface Tree {
  farm: string;
  field: string;
  cultivation: string;
  harvest: string;
  analysis: string;
  fertilizer: string;
  application: string;
}

type TimedRecord = Record<string, unknown> & { created_at: string; updated_at: string };

describe.each(storageKinds)('conditional requests (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;
  let t: Tree;

  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const all: Record<string, string> = { 'x-api-key': owner.key, ...headers };
    if (body !== undefined) all['content-type'] = 'application/json';
    return fetch(`${server.url}${path}`, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  };

  async function post<T>(path: string, body: unknown): Promise<T> {
    const response = await send('POST', path, body);
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A farm with one record of every kind below it, built through the API. */
  async function tree(): Promise<Tree> {
    const farm = (await createFarm(server.app, owner.key)).b_id_farm;
    const field = (
      await post<{ b_id: string }>(`/api/farms/${farm}/fields`, { b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01' })
    ).b_id;
    const cultivation = (
      await post<{ b_lu: string }>(`/api/fields/${field}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' })
    ).b_lu;
    const harvest = (
      await post<{ b_id_harvesting: string }>(`/api/cultivations/${cultivation}/harvests`, {
        b_lu_harvest_date: '2025-06-01',
        b_lu_yield: 3000,
        b_lu_cp: 170,
      })
    ).b_id_harvesting;
    const analysis = (await post<{ a_id: string }>(`/api/fields/${field}/soil-analyses`, { a_som_loi: 3, b_sampling_date: '2025-01-15' }))
      .a_id;
    const fertilizer = (await post<{ p_id: string }>(`/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT028' })).p_id;
    const application = (
      await post<{ p_app_id: string }>(`/api/fields/${field}/fertilizer-applications`, {
        p_id: fertilizer,
        p_app_amount_display: 100,
        p_app_method: 'injection',
        p_app_date: '2025-03-01',
      })
    ).p_app_id;
    return { farm, field, cultivation, harvest, analysis, fertilizer, application };
  }

  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
    t = await tree();
  });
  afterAll(() => server?.close());

  /** Every kind of single record, with a change of it (`n` makes each change differ from the last). */
  const changeable: Array<{ kind: string; path: (t: Tree) => string; change: (n: number) => object }> = [
    { kind: 'farm', path: (t) => `/api/farms/${t.farm}`, change: (n) => ({ b_name_farm: `Hoeve ${n}` }) },
    { kind: 'field', path: (t) => `/api/fields/${t.field}`, change: (n) => ({ b_name: `Perceel ${n}` }) },
    { kind: 'cultivation', path: (t) => `/api/cultivations/${t.cultivation}`, change: (n) => ({ m_cropresidue: n % 2 === 0 }) },
    { kind: 'harvest', path: (t) => `/api/harvests/${t.harvest}`, change: (n) => ({ b_lu_yield: 3000 + n }) },
    { kind: 'soil analysis', path: (t) => `/api/soil-analyses/${t.analysis}`, change: (n) => ({ a_som_loi: 3 + (n % 10) / 10 }) },
    {
      kind: 'fertilizer application',
      path: (t) => `/api/fertilizer-applications/${t.application}`,
      change: (n) => ({ p_app_amount_display: 100 + n }),
    },
  ];
  const readable = [...changeable, { kind: 'fertilizer', path: (t: Tree) => `/api/fertilizers/${t.fertilizer}` }];
  let changes = 0;

  async function read(path: string): Promise<{ tag: string; record: TimedRecord }> {
    const response = await send('GET', path);
    expect(response.status, path).toBe(200);
    return { tag: response.headers.get('etag')!, record: (await response.json()) as TimedRecord };
  }

  test.each(readable)('a $kind answers a strong ETag that stays while it does not change', async ({ path }) => {
    const first = await read(path(t));
    expect(first.tag).toMatch(STRONG_TAG);
    const second = await read(path(t));
    expect(second.tag).toBe(first.tag);
    expect(second.record).toEqual(first.record);
  });

  test.each(readable)('a $kind read with If-None-Match of its ETag is 304 with the ETag and no body', async ({ path }) => {
    const { tag } = await read(path(t));
    for (const sent of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const response = await send('GET', path(t), undefined, { 'if-none-match': sent });
      expect(response.status, sent).toBe(304);
      expect(response.headers.get('etag')).toBe(tag);
      expect(await response.text()).toBe('');
    }
    const stale = await send('GET', path(t), undefined, { 'if-none-match': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(tag);
  });

  test.each(readable)('a $kind carries created_at and updated_at in RFC 3339 UTC', async ({ path }) => {
    const { record } = await read(path(t));
    expect(record.created_at).toMatch(RFC3339_UTC);
    expect(record.updated_at).toMatch(RFC3339_UTC);
    expect(record.updated_at >= record.created_at).toBe(true);
  });

  test.each(changeable)('a PATCH of a $kind answers its new ETag and moves updated_at, not created_at', async ({ path, change }) => {
    const before = await read(path(t));
    const response = await send('PATCH', path(t), change(++changes), { 'if-match': before.tag });
    expect(response.status).toBe(200);
    const tag = response.headers.get('etag')!;
    expect(tag).toMatch(STRONG_TAG);
    expect(tag).not.toBe(before.tag);
    const changed = (await response.json()) as TimedRecord;
    expect(changed.created_at).toBe(before.record.created_at);
    expect(changed.updated_at > before.record.updated_at).toBe(true);
    const after = await read(path(t));
    expect(after.tag).toBe(tag);
    expect(after.record).toEqual(changed);
  });

  test.each(changeable)('a PATCH of a $kind with a stale If-Match is 412 and changes nothing', async ({ path, change }) => {
    const stale = (await read(path(t))).tag;
    expect((await send('PATCH', path(t), change(++changes))).status).toBe(200);
    const current = await read(path(t));
    await expectProblem(await send('PATCH', path(t), change(++changes), { 'if-match': stale }), 412, 'precondition-failed');
    await expectProblem(await send('PATCH', path(t), change(++changes), { 'if-match': `W/${current.tag}` }), 412, 'precondition-failed');
    expect(await read(path(t))).toEqual(current);
    // One of several tags, or any at all.
    expect((await send('PATCH', path(t), change(++changes), { 'if-match': `${stale}, ${current.tag}` })).status).toBe(200);
    expect((await send('PATCH', path(t), change(++changes), { 'if-match': '*' })).status).toBe(200);
  });

  test('a malformed If-Match or If-None-Match is 400, and nothing changes', async () => {
    const before = await read(`/api/farms/${t.farm}`);
    for (const sent of ['abc', '"unterminated', '"a" "b"', 'W/abc', '"a",,x', '', ' ']) {
      const body = await expectProblem(
        await send('PATCH', `/api/farms/${t.farm}`, { b_name_farm: 'Malformed' }, { 'if-match': sent }),
        400,
        'validation-failed',
      );
      expect(body.errors).toEqual([{ field: 'If-Match', message: expect.any(String) }]);
      await expectProblem(await send('GET', `/api/farms/${t.farm}`, undefined, { 'if-none-match': sent }), 400, 'validation-failed');
    }
    expect(await read(`/api/farms/${t.farm}`)).toEqual(before);
  });

  test('a precondition the operation does not take is 400, never ignored, and nothing changes', async () => {
    const own = await tree();
    const before = await read(`/api/farms/${own.farm}`);
    const refusals: Array<[string, string, unknown, Record<string, string>, string]> = [
      ['PUT', `/api/farms/${own.farm}/derogations/2025`, undefined, { 'if-match': '*' }, 'If-Match'],
      ['PUT', `/api/farms/${own.farm}/grazing-intentions/2025`, { b_grazing_intention: true }, { 'if-match': '"x"' }, 'If-Match'],
      ['PATCH', `/api/farms/${own.farm}`, { b_name_farm: 'Not so' }, { 'if-none-match': '*' }, 'If-None-Match'],
      ['DELETE', `/api/farms/${own.farm}`, undefined, { 'if-none-match': '*' }, 'If-None-Match'],
      [
        'POST',
        `/api/farms/${own.farm}/fields`,
        { b_name: 'Not so', b_geometry: rectangle(), b_start: '2020-01-01' },
        { 'if-match': '*' },
        'If-Match',
      ],
    ];
    for (const [method, path, body, headers, field] of refusals) {
      const problem = await expectProblem(await send(method, path, body, headers), 400, 'validation-failed');
      expect(problem.errors, `${method} ${path}`).toEqual([{ field, message: expect.stringContaining('is not taken by') }]);
    }
    expect(await read(`/api/farms/${own.farm}`)).toEqual(before);
    expect((await send('GET', `/api/farms/${own.farm}/derogations`)).status).toBe(200);
    expect(((await (await send('GET', `/api/farms/${own.farm}/derogations`)).json()) as { data: unknown[] }).data).toEqual([]);
    expect(((await (await send('GET', `/api/farms/${own.farm}/fields`)).json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  test('the PUT of a derogation refuses a body with members, as every body with unknown members is refused', async () => {
    const own = await tree();
    await expectProblem(await send('PUT', `/api/farms/${own.farm}/derogations/2025`, { x: 1 }), 400, 'validation-failed');
    expect(((await (await send('GET', `/api/farms/${own.farm}/derogations`)).json()) as { data: unknown[] }).data).toEqual([]);
    expect((await send('PUT', `/api/farms/${own.farm}/derogations/2025`)).status).toBe(201);
    expect((await send('PUT', `/api/farms/${own.farm}/derogations/2025`, {})).status).toBe(200);
  });

  test.each([...readable.map((r) => r.kind)])('a DELETE of a %s with a stale If-Match is 412 and deletes nothing', async (kind) => {
    const own = await tree();
    // A fertilizer of its own: the tree's is in use by its application.
    const fertilizer = (await post<{ p_id: string }>(`/api/farms/${own.farm}/fertilizers`, { p_id_catalogue: 'BAAT050' })).p_id;
    const path = kind === 'fertilizer' ? `/api/fertilizers/${fertilizer}` : changeable.find((c) => c.kind === kind)!.path(own);
    const current = await read(path);
    await expectProblem(await send('DELETE', path, undefined, { 'if-match': '"stale"' }), 412, 'precondition-failed');
    expect(await read(path)).toEqual(current);
    expect((await send('DELETE', path, undefined, { 'if-match': current.tag })).status).toBe(204);
    expect((await send('GET', path)).status).toBe(404);
  });

  test('a DELETE after a change with the tag from before the change is 412', async () => {
    const own = await tree();
    const path = `/api/fields/${own.field}`;
    const stale = (await read(path)).tag;
    expect((await send('PATCH', path, { b_name: 'Changed' })).status).toBe(200);
    await expectProblem(await send('DELETE', path, undefined, { 'if-match': stale }), 412, 'precondition-failed');
    expect((await send('GET', `/api/cultivations/${own.cultivation}`)).status).toBe(200);
  });

  test.each(changeable)('two PATCHes of one $kind with the same If-Match: one 200, one 412', async ({ path, change }) => {
    for (let round = 0; round < ROUNDS; round++) {
      const { tag } = await read(path(t));
      const [a, b] = await Promise.all([
        send('PATCH', path(t), change(++changes), { 'if-match': tag }),
        send('PATCH', path(t), change(++changes), { 'if-match': tag }),
      ]);
      expect([a.status, b.status].sort(), `round ${round}`).toEqual([200, 412]);
      const winner = a.status === 200 ? a : b;
      expect((await read(path(t))).tag, `round ${round}`).toBe(winner.headers.get('etag'));
    }
  });

  test('records in lists carry their times too', async () => {
    const lists = [
      '/api/farms',
      `/api/farms/${t.farm}/fields`,
      `/api/fields/${t.field}/cultivations`,
      `/api/cultivations/${t.cultivation}/harvests`,
      `/api/fields/${t.field}/soil-analyses`,
      `/api/farms/${t.farm}/fertilizers`,
      `/api/fields/${t.field}/fertilizer-applications`,
    ];
    for (const list of lists) {
      const page = (await (await send('GET', list)).json()) as { data: TimedRecord[] };
      expect(page.data.length, list).toBeGreaterThan(0);
      for (const item of page.data) {
        expect(item.created_at, list).toMatch(RFC3339_UTC);
        expect(item.updated_at, list).toMatch(RFC3339_UTC);
      }
    }
    const farm = await read(`/api/farms/${t.farm}`);
    const listed = ((await (await send('GET', '/api/farms?limit=200')).json()) as { data: TimedRecord[] }).data.find(
      (f) => f.b_id_farm === t.farm,
    );
    // The list also gives the caller's role on each farm.
    expect(listed).toEqual({ ...(farm.record as object), role: 'owner' });
  });

  test('a crop harvested once, created with its end, answers as it is then read: its harvest does not touch it again', async () => {
    const created = await send('POST', `/api/fields/${t.field}/cultivations`, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2025-01-01',
      b_lu_end: '2025-08-01',
    });
    expect(created.status).toBe(201);
    const cultivation = (await created.json()) as TimedRecord & { b_lu: string };
    const path = `/api/cultivations/${cultivation.b_lu}`;
    const read_ = await read(path);
    expect(read_.record).toEqual(cultivation);
    expect(read_.tag).toBe(created.headers.get('etag'));
    // Changing its harvest's yield leaves the end, and so the cultivation, as it was.
    const harvests = (await (await send('GET', `${path}/harvests`)).json()) as { data: Array<{ b_id_harvesting: string }> };
    expect((await send('PATCH', `/api/harvests/${harvests.data[0]!.b_id_harvesting}`, { b_lu_yield: 8000 })).status).toBe(200);
    expect(await read(path)).toEqual(read_);
  });

  test('a new record was updated when it was created; sharing the farm does not move its updated_at', async () => {
    const farm = await createFarm(server.app, owner.key);
    const { record } = await read(`/api/farms/${farm.b_id_farm}`);
    expect(record.updated_at).toBe(record.created_at);
    const advisor = await signUpWithKey(server.app);
    expect((await send('PUT', `/api/farms/${farm.b_id_farm}/access`, { email: advisor.email, role: 'advisor' })).status).toBe(200);
    expect((await send('DELETE', `/api/farms/${farm.b_id_farm}/access/${encodeURIComponent(advisor.email)}`)).status).toBe(204);
    expect((await read(`/api/farms/${farm.b_id_farm}`)).record).toEqual(record);
  });
});
