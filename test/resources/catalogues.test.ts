// The crop and fertilizer catalogues: paginated, searchable with q, behind an API key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}
type Crop = { b_lu_catalogue: string; b_lu_name: string; b_lu_name_en: string | null; [column: string]: unknown };
type Fertilizer = { p_id_catalogue: string; p_name_nl: string; [column: string]: unknown };

// The catalogues are not stored in the database: one storage is enough.
describe('catalogues', () => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  const get = async <T>(path: string): Promise<Page<T>> => {
    const response = await call(t.app, user.key, 'GET', path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    return (await response.json()) as Page<T>;
  };

  it('pages the 532 crops with the envelope', async () => {
    const first = await get<Crop>('/api/catalogues/cultivations');
    expect(first.pagination).toEqual({ limit: 50, offset: 0, total: 532 });
    expect(first.data).toHaveLength(50);
    expect(Object.keys(first.data[0]!)).toEqual(
      expect.arrayContaining(['b_lu_catalogue', 'b_lu_name', 'b_lu_harvestable', 'b_lu_harvestcat', 'b_lu_yield']),
    );
    const last = await get<Crop>('/api/catalogues/cultivations?limit=200&offset=500');
    expect(last.pagination).toEqual({ limit: 200, offset: 500, total: 532 });
    expect(last.data).toHaveLength(32);
    const all = [
      ...(await get<Crop>('/api/catalogues/cultivations?limit=200')).data,
      ...(await get<Crop>('/api/catalogues/cultivations?limit=200&offset=200')).data,
      ...last.data.slice(0, 32),
    ];
    expect(new Set(all.map((c) => c.b_lu_catalogue)).size).toBe(all.length);
    expect((await get<Crop>('/api/catalogues/cultivations?offset=600')).data).toEqual([]);
  });

  it('pages the 122 fertilizers with the envelope', async () => {
    const first = await get<Fertilizer>('/api/catalogues/fertilizers?limit=100');
    expect(first.pagination).toEqual({ limit: 100, offset: 0, total: 122 });
    expect(first.data).toHaveLength(100);
    const rest = await get<Fertilizer>('/api/catalogues/fertilizers?limit=100&offset=100');
    expect(rest.data).toHaveLength(22);
    const slurry = [...first.data, ...rest.data].find((f) => f.p_id_catalogue === 'BAAT050');
    expect(slurry).toMatchObject({
      p_name_nl: 'Rundveedrijfmest',
      p_source: 'baat',
      p_app_amount_unit: 'm3/ha',
      p_density: 1.005,
      p_type: 'manure',
    });
  });

  it('answers catalogue entries with exactly the properties of the OpenAPI document', async () => {
    const document = (await (await t.app.request('/api/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: object }> };
    };
    const crop = (await get<Crop>('/api/catalogues/cultivations?limit=1')).data[0]!;
    expect(Object.keys(crop).sort()).toEqual(Object.keys(document.components.schemas.CatalogueCrop!.properties).sort());
    const fertilizer = (await get<Fertilizer>('/api/catalogues/fertilizers?limit=1')).data[0]!;
    expect(Object.keys(fertilizer).sort()).toEqual(Object.keys(document.components.schemas.CatalogueFertilizer!.properties).sort());
  });

  it.each([
    ['TARWE, WINTER', 'nl_233'],
    ['tarwe, winter', 'nl_233'],
    ['Wheat Winter', 'nl_233'],
    ['NL_259', 'nl_259'],
    ['mais, snij', 'nl_259'],
  ])('finds crops by q=%s case-insensitively (%s)', async (q, code) => {
    const page = await get<Crop>(`/api/catalogues/cultivations?q=${encodeURIComponent(q)}`);
    expect(page.data.map((c) => c.b_lu_catalogue)).toContain(code);
    expect(page.pagination.total).toBe(page.data.length);
    for (const crop of page.data) {
      const texts = [crop.b_lu_name, crop.b_lu_name_en ?? '', crop.b_lu_catalogue].map((s) => s.toLowerCase());
      expect(texts.some((s) => s.includes(q.toLowerCase()))).toBe(true);
    }
  });

  it('pages the results of a search, and finds nothing for an unknown word', async () => {
    const all = await get<Crop>('/api/catalogues/cultivations?q=grasland&limit=200');
    expect(all.pagination.total).toBeGreaterThan(2);
    const second = await get<Crop>('/api/catalogues/cultivations?q=grasland&limit=2&offset=1');
    expect(second.data.map((c) => c.b_lu_catalogue)).toEqual(all.data.slice(1, 3).map((c) => c.b_lu_catalogue));
    expect(second.pagination).toEqual({ limit: 2, offset: 1, total: all.pagination.total });
    expect(await get<Crop>('/api/catalogues/cultivations?q=zzzzqqq')).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it.each([
    ['rundveedrijfmest', 'BAAT050'],
    ['RUNDVEEDRIJFMEST', 'BAAT050'],
    ['baat050', 'BAAT050'],
    ['Ammoniumnitraatureanoplossing', 'BAAT003'],
  ])('finds fertilizers by q=%s case-insensitively (%s)', async (q, id) => {
    const page = await get<Fertilizer>(`/api/catalogues/fertilizers?q=${encodeURIComponent(q)}`);
    expect(page.data.map((f) => f.p_id_catalogue)).toContain(id);
    for (const fertilizer of page.data) {
      expect([fertilizer.p_name_nl, fertilizer.p_id_catalogue].some((s) => s.toLowerCase().includes(q.toLowerCase()))).toBe(true);
    }
  });

  it.each(['/api/catalogues/cultivations', '/api/catalogues/fertilizers'])('needs an API key for %s (401 without)', async (path) => {
    await expectProblem(await t.app.request(path), 401, 'unauthorized');
    await expectProblem(
      await t.app.request(path, { headers: { 'x-api-key': 'akk_notakeyatallnotakeyatallnotakeyatall' } }),
      401,
      'unauthorized',
    );
  });

  it.each(['limit=0', 'limit=201', 'offset=-1'])('refuses %s with 400', async (query) => {
    await expectProblem(await call(t.app, user.key, 'GET', `/api/catalogues/cultivations?${query}`), 400, 'validation-failed');
  });
});
