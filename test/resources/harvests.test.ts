// Harvests (docs/calculations.md): the harvest rules against the stored cultivation, the conversion of
// the measurements by harvest category, PATCH, date filters, hard delete and access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createCultivation, createField, createHarvest, type CultivationBody, type HarvestBody } from '../helpers/fixtures.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}

const fieldsOf = (body: Record<string, unknown>) => (body.errors as Array<{ field: string }>).map((e) => e.field);

// Crops of src/catalogues/data/cultivations-brp.json, one per harvest category.
const WINTER_WHEAT = 'nl_233'; // once, HC050
const SILAGE_MAIZE = 'nl_259'; // once, HC031
const PERMANENT_GRASS = 'nl_265'; // multiple, HC020
const POTATOES = 'nl_2014'; // once, HC042
const SUGAR_BEET = 'nl_256'; // once, HC041
const SUNFLOWERS = 'nl_515'; // once, HC010
const NATURE = 'nl_335'; // none

describe.each(storageKinds)('harvests on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let fieldId: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    const farm = await createFarm(t.app, user.key);
    fieldId = (await createField(t.app, user.key, farm.b_id_farm)).b_id;
  });
  afterAll(() => t.close());

  const get = async <T>(path: string): Promise<T> => {
    const response = await call(t.app, user.key, 'GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const cultivation = (b_lu_catalogue: string, b_lu_start = '2025-03-01', b_lu_end: string | null = null) =>
    createCultivation(t.app, user.key, fieldId, { b_lu_catalogue, b_lu_start, b_lu_end });
  const postHarvest = (b_lu: string, body: unknown) => call(t.app, user.key, 'POST', `/api/cultivations/${b_lu}/harvests`, body);
  const harvestsOf = (b_lu: string, query = '') => get<Page<HarvestBody>>(`/api/cultivations/${b_lu}/harvests${query}`);

  it('creates a harvest with 201, a Location header, the measurements as sent and the derived values', async () => {
    const grass = await cultivation(PERMANENT_GRASS);
    const response = await postHarvest(grass.b_lu, { b_lu_harvest_date: '2025-05-20', b_lu_yield: 3500, b_lu_cp: 180 });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    const harvest = (await response.json()) as HarvestBody;
    expect(harvest).toEqual({
      b_id_harvesting: expect.any(String),
      b_lu: grass.b_lu,
      b_lu_harvest_date: '2025-05-20',
      b_lu_yield: 3500,
      b_lu_n_harvestable: 29,
      b_lu_yield_fresh: null,
      b_lu_yield_bruto: null,
      b_lu_tarra: null,
      b_lu_dm: null,
      b_lu_moist: null,
      b_lu_uww: null,
      b_lu_cp: 180,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(response.headers.get('location')).toBe(`/api/harvests/${harvest.b_id_harvesting}`);
    expect(await get(`/api/harvests/${harvest.b_id_harvesting}`)).toEqual(harvest);
    expect((await harvestsOf(grass.b_lu)).data).toEqual([harvest]);
  });

  it('refuses to harvest a crop that is not harvested (b_lu_harvestable none) with 422', async () => {
    const nature = await cultivation(NATURE);
    expect(nature.b_lu_harvestable).toBe('none');
    await expectProblem(await postHarvest(nature.b_lu, { b_lu_harvest_date: '2025-06-01' }), 422, 'unprocessable-entity');
    expect((await harvestsOf(nature.b_lu)).pagination.total).toBe(0);
  });

  it('refuses a harvest date before b_lu_start with 409; on the start date it is fine', async () => {
    const grass = await cultivation(PERMANENT_GRASS, '2025-03-01');
    await expectProblem(
      await postHarvest(grass.b_lu, { b_lu_harvest_date: '2025-02-28', b_lu_yield: 2000, b_lu_cp: 150 }),
      409,
      'conflict',
    );
    expect((await postHarvest(grass.b_lu, { b_lu_harvest_date: '2025-03-01', b_lu_yield: 2000, b_lu_cp: 150 })).status).toBe(201);
  });

  it('sets b_lu_end of a crop harvested once to the harvest date, and refuses a second harvest with 409', async () => {
    const wheat = await cultivation(WINTER_WHEAT, '2024-10-15');
    expect(wheat.b_lu_end).toBeNull();
    await createHarvest(t.app, user.key, wheat.b_lu, {
      b_lu_harvest_date: '2025-07-28',
      b_lu_yield_fresh: 9000,
      b_lu_moist: 15,
      b_lu_cp: 120,
    });
    expect(await get<CultivationBody>(`/api/cultivations/${wheat.b_lu}`)).toMatchObject({
      b_lu_start: '2024-10-15',
      b_lu_end: '2025-07-28',
    });
    await expectProblem(
      await postHarvest(wheat.b_lu, { b_lu_harvest_date: '2025-07-28', b_lu_yield_fresh: 1000, b_lu_moist: 15, b_lu_cp: 120 }),
      409,
      'conflict',
    );
    await expectProblem(await postHarvest(wheat.b_lu, { b_lu_harvest_date: '2025-08-10' }), 409, 'conflict');
    expect((await harvestsOf(wheat.b_lu)).pagination.total).toBe(1);
  });

  it('refuses a harvest of a crop harvested once on another date than its end date with 409', async () => {
    const maize = await cultivation(SILAGE_MAIZE, '2025-05-01', '2025-10-01');
    // the automatic harvest of its end date goes first, so the cultivation has an end and no harvest
    const automatic = (await harvestsOf(maize.b_lu)).data[0]!;
    expect((await call(t.app, user.key, 'DELETE', `/api/harvests/${automatic.b_id_harvesting}`)).status).toBe(204);
    await expectProblem(
      await postHarvest(maize.b_lu, { b_lu_harvest_date: '2025-09-30', b_lu_yield: 5000, b_lu_cp: 100 }),
      409,
      'conflict',
    );
    await expectProblem(
      await postHarvest(maize.b_lu, { b_lu_harvest_date: '2025-10-02', b_lu_yield: 5000, b_lu_cp: 100 }),
      409,
      'conflict',
    );
    const onTheEnd = await createHarvest(t.app, user.key, maize.b_lu, { b_lu_harvest_date: '2025-10-01', b_lu_yield: 5000, b_lu_cp: 100 });
    expect(onTheEnd).toMatchObject({ b_lu_yield: 5000, b_lu_n_harvestable: 16 });
  });

  it('allows several harvests of grass until its end, and refuses one after the end with 409', async () => {
    const grass = await cultivation(PERMANENT_GRASS, '2025-01-01', '2025-09-30');
    for (const date of ['2025-05-01', '2025-06-15', '2025-09-30']) {
      expect((await postHarvest(grass.b_lu, { b_lu_harvest_date: date, b_lu_yield: 2500, b_lu_cp: 160 })).status).toBe(201);
    }
    await expectProblem(
      await postHarvest(grass.b_lu, { b_lu_harvest_date: '2025-10-01', b_lu_yield: 2500, b_lu_cp: 160 }),
      409,
      'conflict',
    );
    expect(await get<CultivationBody>(`/api/cultivations/${grass.b_lu}`)).toMatchObject({ b_lu_end: '2025-09-30' });
    expect((await harvestsOf(grass.b_lu)).pagination.total).toBe(3);
  });

  it.each([
    [WINTER_WHEAT, 'HC050', { b_lu_yield_fresh: 9000, b_lu_cp: 120 }, ['b_lu_moist']],
    [WINTER_WHEAT, 'HC050', { b_lu_moist: 15 }, ['b_lu_yield_fresh', 'b_lu_cp']],
    [SUNFLOWERS, 'HC010', { b_lu_yield_fresh: 4000, b_lu_n_harvestable: 30 }, ['b_lu_dm']],
    [PERMANENT_GRASS, 'HC020', { b_lu_yield: 3000 }, ['b_lu_cp']],
    [SILAGE_MAIZE, 'HC031', { b_lu_cp: 100 }, ['b_lu_yield']],
    [POTATOES, 'HC042', { b_lu_yield_bruto: 52000, b_lu_tarra: 4, b_lu_n_harvestable: 14 }, ['b_lu_uww']],
    [SUGAR_BEET, 'HC041', { b_lu_yield_bruto: 80000, b_lu_dm: 230, b_lu_n_harvestable: 8 }, ['b_lu_tarra']],
  ])('refuses a %s (%s) harvest without a required measurement with 422 naming it', async (crop, category, measurements, missing) => {
    const c = await cultivation(crop, '2025-03-01');
    const body = await expectProblem(
      await postHarvest(c.b_lu, { b_lu_harvest_date: '2025-09-01', ...measurements }),
      422,
      'unprocessable-entity',
    );
    expect(body.detail).toContain(category);
    for (const name of missing) expect(body.detail).toContain(name);
    expect((await harvestsOf(c.b_lu)).pagination.total).toBe(0);
    // nothing changed on the cultivation either
    expect(await get<CultivationBody>(`/api/cultivations/${c.b_lu}`)).toMatchObject({ b_lu_end: null });
  });

  it.each([
    ['HC010 (fresh × dm / 1000)', SUNFLOWERS, { b_lu_yield_fresh: 4000, b_lu_dm: 900, b_lu_n_harvestable: 30 }, 3600, 30],
    ['HC010, half way rounds up', SUNFLOWERS, { b_lu_yield_fresh: 1001, b_lu_dm: 500, b_lu_n_harvestable: 12.5 }, 501, 12.5],
    ['HC020 (cp / 6.25)', PERMANENT_GRASS, { b_lu_yield: 3500, b_lu_cp: 180 }, 3500, 29],
    ['HC031 (cp / 6.25, 102.5 → 16)', SILAGE_MAIZE, { b_lu_yield: 4900, b_lu_cp: 102.5 }, 4900, 16],
    ['HC031 (cp / 6.25, 103.125 → 16.5 → 17)', SILAGE_MAIZE, { b_lu_yield: 4900, b_lu_cp: 103.125 }, 4900, 17],
    [
      'HC041 ((100 − tarra) / 100 × bruto × dm / 1000)',
      SUGAR_BEET,
      { b_lu_yield_bruto: 80000, b_lu_tarra: 10, b_lu_dm: 230, b_lu_n_harvestable: 8 },
      16560,
      8,
    ],
    [
      'HC042 (dm from the underwater weight)',
      POTATOES,
      { b_lu_yield_bruto: 52000, b_lu_tarra: 4, b_lu_uww: 380, b_lu_n_harvestable: 14 },
      10294,
      14,
    ],
    [
      'HC050 (fresh × (100 − moist) × 10 / 1000, cp / 5.7)',
      WINTER_WHEAT,
      { b_lu_yield_fresh: 9000, b_lu_moist: 15, b_lu_cp: 120 },
      7650,
      21,
    ],
  ])('converts %s', async (_name, crop, measurements, yieldDm, n) => {
    const c = await cultivation(crop, '2025-03-01');
    const harvest = await createHarvest(t.app, user.key, c.b_lu, { b_lu_harvest_date: '2025-09-01', ...measurements });
    expect(harvest).toMatchObject({ ...measurements, b_lu_yield: yieldDm, b_lu_n_harvestable: n });
    expect(await get(`/api/harvests/${harvest.b_id_harvesting}`)).toEqual(harvest);
  });

  it('stores a harvest without measurements with null b_lu_yield and b_lu_n_harvestable', async () => {
    const wheat = await cultivation(WINTER_WHEAT, '2024-10-15');
    const harvest = await createHarvest(t.app, user.key, wheat.b_lu, { b_lu_harvest_date: '2025-08-01' });
    expect(harvest).toMatchObject({ b_lu_yield: null, b_lu_n_harvestable: null, b_lu_yield_fresh: null, b_lu_moist: null, b_lu_cp: null });
    const grass = await cultivation(PERMANENT_GRASS);
    const nulls = await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-06-01', b_lu_yield: null, b_lu_cp: null });
    expect(nulls).toMatchObject({ b_lu_yield: null, b_lu_n_harvestable: null });
  });

  it.each([
    [{ b_lu_yield: -1, b_lu_cp: 170 }, 'b_lu_yield'],
    [{ b_lu_yield: 3000, b_lu_cp: -0.5 }, 'b_lu_cp'],
    [{ b_lu_yield: 3000, b_lu_cp: 170, b_lu_tarra: 100 }, 'b_lu_tarra'],
    [{ b_lu_yield: '3000', b_lu_cp: 170 }, 'b_lu_yield'],
    [{ b_lu_yield: 3000, b_lu_cp: 170, b_lu_protein: 3 }, 'b_lu_protein'],
  ])('refuses %j with 400 naming %s', async (measurements, field) => {
    const grass = await cultivation(PERMANENT_GRASS);
    const body = await expectProblem(
      await postHarvest(grass.b_lu, { b_lu_harvest_date: '2025-06-01', ...measurements }),
      400,
      'validation-failed',
    );
    expect(fieldsOf(body)).toEqual([field]);
  });

  it('names the type, not "is required", for a measurement of the wrong type', async () => {
    const grass = await cultivation(PERMANENT_GRASS);
    const body = await expectProblem(
      await postHarvest(grass.b_lu, { b_lu_harvest_date: '2025-06-01', b_lu_yield: '3000', b_lu_cp: 170 }),
      400,
      'validation-failed',
    );
    expect(body.errors).toHaveLength(1);
    expect((body.errors as Array<{ field: string; message: string }>)[0]).toMatchObject({ field: 'b_lu_yield' });
    expect((body.errors as Array<{ message: string }>)[0]!.message).not.toBe('is required');
  });

  it('refuses a harvest date in the year 0000 with 400', async () => {
    const grass = await cultivation(PERMANENT_GRASS);
    expect(
      fieldsOf(await expectProblem(await postHarvest(grass.b_lu, { b_lu_harvest_date: '0000-06-01' }), 400, 'validation-failed')),
    ).toEqual(['b_lu_harvest_date']);
    await expectProblem(
      await call(t.app, user.key, 'GET', `/api/cultivations/${grass.b_lu}/harvests?end=0000-12-31`),
      400,
      'validation-failed',
    );
  });

  it('stores one harvest of a crop harvested once when several are sent at the same time', async () => {
    const wheat = await cultivation(WINTER_WHEAT, '2024-10-15');
    const statuses = await Promise.all(
      [1, 2, 3].map(() => postHarvest(wheat.b_lu, { b_lu_harvest_date: '2025-08-01' }).then((r) => r.status)),
    );
    expect(statuses.sort()).toEqual([201, 409, 409]);
    expect((await harvestsOf(wheat.b_lu)).pagination.total).toBe(1);
  });

  it('refuses a missing or impossible harvest date with 400', async () => {
    const grass = await cultivation(PERMANENT_GRASS);
    expect(
      fieldsOf(await expectProblem(await postHarvest(grass.b_lu, { b_lu_yield: 3000, b_lu_cp: 170 }), 400, 'validation-failed')),
    ).toEqual(['b_lu_harvest_date']);
    expect(
      fieldsOf(await expectProblem(await postHarvest(grass.b_lu, { b_lu_harvest_date: '2025-02-29' }), 400, 'validation-failed')),
    ).toEqual(['b_lu_harvest_date']);
  });

  it('recomputes the derived values on PATCH and keeps the measurements not sent', async () => {
    const wheat = await cultivation(WINTER_WHEAT, '2024-10-15');
    const harvest = await createHarvest(t.app, user.key, wheat.b_lu, {
      b_lu_harvest_date: '2025-08-01',
      b_lu_yield_fresh: 9000,
      b_lu_moist: 15,
      b_lu_cp: 120,
    });
    const patch = (body: unknown) => call(t.app, user.key, 'PATCH', `/api/harvests/${harvest.b_id_harvesting}`, body);
    const moist = await patch({ b_lu_moist: 20 });
    expect(moist.status).toBe(200);
    expect(await moist.json()).toMatchObject({
      b_lu_yield_fresh: 9000,
      b_lu_moist: 20,
      b_lu_cp: 120,
      b_lu_yield: 7200,
      b_lu_n_harvestable: 21,
    });
    expect(await (await patch({ b_lu_cp: 171 })).json()).toMatchObject({ b_lu_yield: 7200, b_lu_n_harvestable: 30 });
    // a required measurement cleared: 422, nothing changed
    const cleared = await expectProblem(await patch({ b_lu_moist: null }), 422, 'unprocessable-entity');
    expect(cleared.detail).toContain('b_lu_moist');
    await expectProblem(await patch({ b_lu_cp: -3 }), 400, 'validation-failed');
    expect(await get(`/api/harvests/${harvest.b_id_harvesting}`)).toMatchObject({
      b_lu_moist: 20,
      b_lu_cp: 171,
      b_lu_yield: 7200,
      b_lu_n_harvestable: 30,
    });
  });

  it('moves the end of a crop harvested once with its harvest date on PATCH, and checks the date against the start', async () => {
    const wheat = await cultivation(WINTER_WHEAT, '2024-10-15', '2025-08-01');
    const harvest = (await harvestsOf(wheat.b_lu)).data[0]!;
    const patch = (body: unknown) => call(t.app, user.key, 'PATCH', `/api/harvests/${harvest.b_id_harvesting}`, body);
    const moved = await patch({ b_lu_harvest_date: '2025-07-25' });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ b_lu_harvest_date: '2025-07-25', b_lu_yield: 7830, b_lu_n_harvestable: 24 });
    expect(await get<CultivationBody>(`/api/cultivations/${wheat.b_lu}`)).toMatchObject({ b_lu_end: '2025-07-25' });
    await expectProblem(await patch({ b_lu_harvest_date: '2024-10-14' }), 409, 'conflict');
    expect(await get<CultivationBody>(`/api/cultivations/${wheat.b_lu}`)).toMatchObject({ b_lu_end: '2025-07-25' });
  });

  it('refuses a PATCH moving a harvest of grass after its end with 409', async () => {
    const grass = await cultivation(PERMANENT_GRASS, '2025-01-01', '2025-09-30');
    const harvest = await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-06-01', b_lu_yield: 2000, b_lu_cp: 150 });
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/harvests/${harvest.b_id_harvesting}`, { b_lu_harvest_date: '2025-10-01' }),
      409,
      'conflict',
    );
    expect(await get(`/api/harvests/${harvest.b_id_harvesting}`)).toMatchObject({ b_lu_harvest_date: '2025-06-01' });
  });

  describe('list with start and end', () => {
    let grass: CultivationBody;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      grass = await cultivation(PERMANENT_GRASS, '2025-01-01');
      for (const date of ['2025-08-01', '2025-05-01', '2025-06-15']) {
        ids[date] = (
          await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: date, b_lu_yield: 2000, b_lu_cp: 150 })
        ).b_id_harvesting;
      }
    });
    const dates = async (query: string) => {
      const page = await harvestsOf(grass.b_lu, query);
      expect(page.pagination.total).toBe(page.data.length);
      return page.data.map((h) => h.b_lu_harvest_date);
    };

    it.each([
      ['', ['2025-08-01', '2025-05-01', '2025-06-15']],
      ['?start=2025-06-15', ['2025-08-01', '2025-06-15']],
      ['?end=2025-06-15', ['2025-05-01', '2025-06-15']],
      ['?start=2025-05-01&end=2025-05-01', ['2025-05-01']],
      ['?start=2025-06-16&end=2025-07-31', []],
      ['?start=2024-01-01&end=2025-12-31', ['2025-08-01', '2025-05-01', '2025-06-15']],
    ])('lists the harvests dated within %s, in creation order', async (query, expected) => {
      expect(await dates(query)).toEqual(expected);
    });

    it('pages, and refuses end before start with 422 and a malformed date with 400', async () => {
      const page = await harvestsOf(grass.b_lu, '?limit=1&offset=2');
      expect(page).toMatchObject({ data: [{ b_lu_harvest_date: '2025-06-15' }], pagination: { limit: 1, offset: 2, total: 3 } });
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/cultivations/${grass.b_lu}/harvests?start=2025-06-01&end=2025-05-31`),
        422,
        'unprocessable-entity',
      );
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/cultivations/${grass.b_lu}/harvests?start=20250601`),
        400,
        'validation-failed',
      );
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/cultivations/${grass.b_lu}/harvests?end=2025-04-31`),
        400,
        'validation-failed',
      );
    });
  });

  it('hard deletes with 204; then GET, PATCH and a repeated DELETE answer 404', async () => {
    const grass = await cultivation(PERMANENT_GRASS);
    const harvest = await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-06-01', b_lu_yield: 2000, b_lu_cp: 150 });
    const response = await call(t.app, user.key, 'DELETE', `/api/harvests/${harvest.b_id_harvesting}`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectProblem(await call(t.app, user.key, 'GET', `/api/harvests/${harvest.b_id_harvesting}`), 404, 'not-found');
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/harvests/${harvest.b_id_harvesting}`, { b_lu_yield: 1 }),
      404,
      'not-found',
    );
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/harvests/${harvest.b_id_harvesting}`), 404, 'not-found');
    expect((await harvestsOf(grass.b_lu)).pagination.total).toBe(0);
  });

  it("answers 404 for another user's harvest on every endpoint, and changes nothing", async () => {
    const grass = await cultivation(PERMANENT_GRASS);
    const harvest = await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-06-01', b_lu_yield: 2000, b_lu_cp: 150 });
    const stranger = await signUpWithKey(t.app);
    await expectProblem(await call(t.app, stranger.key, 'GET', `/api/harvests/${harvest.b_id_harvesting}`), 404, 'not-found');
    await expectProblem(
      await call(t.app, stranger.key, 'PATCH', `/api/harvests/${harvest.b_id_harvesting}`, { b_lu_yield: 1 }),
      404,
      'not-found',
    );
    await expectProblem(await call(t.app, stranger.key, 'DELETE', `/api/harvests/${harvest.b_id_harvesting}`), 404, 'not-found');
    expect(await get(`/api/harvests/${harvest.b_id_harvesting}`)).toEqual(harvest);
  });
});
