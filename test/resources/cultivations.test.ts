// Cultivations (docs/calculations.md): catalogue check, catalogue columns, date rules,
// the automatic harvest of a crop harvested once, date filters, hard delete and access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import {
  acquireFertilizer,
  createApplication,
  createCultivation,
  createField,
  createHarvest,
  type CultivationBody,
  type HarvestBody,
} from '../helpers/fixtures.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}

const fieldsOf = (body: Record<string, unknown>) => (body.errors as Array<{ field: string }>).map((e) => e.field);

describe.each(storageKinds)('cultivations on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let fieldId: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    fieldId = (await createField(t.app, user.key, farmId)).b_id;
  });
  afterAll(() => t.close());

  const get = async <T>(path: string): Promise<T> => {
    const response = await call(t.app, user.key, 'GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const harvestsOf = (b_lu: string) => get<Page<HarvestBody>>(`/api/cultivations/${b_lu}/harvests`);
  const newField = async () => (await createField(t.app, user.key, farmId)).b_id;

  it('creates a cultivation with 201, a Location header and the catalogue columns of its crop', async () => {
    const response = await call(t.app, user.key, 'POST', `/api/fields/${fieldId}/cultivations`, {
      b_lu_catalogue: 'nl_265',
      b_lu_start: '2025-03-01',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    const cultivation = (await response.json()) as CultivationBody;
    expect(cultivation).toMatchObject({
      b_lu: expect.any(String),
      b_id: fieldId,
      b_lu_catalogue: 'nl_265',
      b_lu_start: '2025-03-01',
      b_lu_end: null,
      m_cropresidue: null,
      b_lu_source: 'brp',
      b_lu_name: 'grasland, blijvend',
      b_lu_name_en: 'Grassland permanent',
      b_lu_croprotation: 'grass',
      b_lu_harvestable: 'multiple',
      b_lu_harvestcat: 'HC020',
      b_lu_yield: 1838,
      b_lu_dm: 150,
      b_lu_hi: 0.67,
      b_lu_n_harvestable: 28.6,
      b_lu_n_residue: 22.9,
      b_n_fixation: 0,
    });
    expect(response.headers.get('location')).toBe(`/api/cultivations/${cultivation.b_lu}`);
    expect(await get(`/api/cultivations/${cultivation.b_lu}`)).toEqual(cultivation);
  });

  it('stores m_cropresidue and the catalogue columns of a crop harvested once', async () => {
    const wheat = await createCultivation(t.app, user.key, fieldId, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-15',
      m_cropresidue: false,
    });
    expect(wheat).toMatchObject({
      m_cropresidue: false,
      b_lu_name: 'tarwe, winter-',
      b_lu_croprotation: 'cereal',
      b_lu_harvestable: 'once',
      b_lu_harvestcat: 'HC050',
      b_lu_yield: 7830,
      b_lu_n_harvestable: 23.5,
    });
  });

  it('refuses an unknown b_lu_catalogue with 422 and stores nothing', async () => {
    const field = await newField();
    const body = await expectProblem(
      await call(t.app, user.key, 'POST', `/api/fields/${field}/cultivations`, { b_lu_catalogue: 'nl_999999', b_lu_start: '2025-03-01' }),
      422,
      'unprocessable-entity',
    );
    expect(body.detail).toContain('nl_999999');
    expect((await get<Page<CultivationBody>>(`/api/fields/${field}/cultivations`)).pagination.total).toBe(0);
  });

  it('refuses b_lu_end before b_lu_start with 422', async () => {
    const body = await expectProblem(
      await call(t.app, user.key, 'POST', `/api/fields/${fieldId}/cultivations`, {
        b_lu_catalogue: 'nl_265',
        b_lu_start: '2025-03-01',
        b_lu_end: '2025-02-28',
      }),
      422,
      'unprocessable-entity',
    );
    expect(body.detail).toContain('b_lu_end');
  });

  it('refuses missing, malformed and impossible dates, and unknown properties, with 400', async () => {
    const post = (body: unknown) => call(t.app, user.key, 'POST', `/api/fields/${fieldId}/cultivations`, body);
    expect(fieldsOf(await expectProblem(await post({ b_lu_catalogue: 'nl_265' }), 400, 'validation-failed'))).toEqual(['b_lu_start']);
    expect(
      fieldsOf(await expectProblem(await post({ b_lu_catalogue: 'nl_265', b_lu_start: '2025-02-30' }), 400, 'validation-failed')),
    ).toEqual(['b_lu_start']);
    expect(
      fieldsOf(await expectProblem(await post({ b_lu_catalogue: 'nl_265', b_lu_start: '01-03-2025' }), 400, 'validation-failed')),
    ).toEqual(['b_lu_start']);
    expect(
      fieldsOf(
        await expectProblem(await post({ b_lu_catalogue: 'nl_265', b_lu_start: '2025-03-01', b_lu_yield: 3 }), 400, 'validation-failed'),
      ),
    ).toEqual(['b_lu_yield']);
  });

  it('gives winter wheat created with b_lu_end its harvest on that date, from catalogue values (yield 7830, N 24)', async () => {
    const wheat = await createCultivation(t.app, user.key, fieldId, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-15',
      b_lu_end: '2025-08-01',
    });
    expect(wheat.b_lu_end).toBe('2025-08-01');
    const page = await harvestsOf(wheat.b_lu);
    expect(page.pagination.total).toBe(1);
    expect(page.data[0]).toMatchObject({
      b_lu: wheat.b_lu,
      b_lu_harvest_date: '2025-08-01',
      b_lu_yield: 7830,
      b_lu_n_harvestable: 24,
      // the catalogue defaults of docs/calculations.md for a cereal (HC050)
      b_lu_yield_fresh: 9000,
      b_lu_moist: 13,
      b_lu_cp: 134,
    });
    expect(await get(`/api/harvests/${page.data[0]!.b_id_harvesting}`)).toEqual(page.data[0]);
    expect((await get<CultivationBody>(`/api/cultivations/${wheat.b_lu}`)).b_lu_end).toBe('2025-08-01');
  });

  it('gives silage maize created with b_lu_end its harvest with N content 16 (cp 102.5 → 103)', async () => {
    const maize = await createCultivation(t.app, user.key, fieldId, {
      b_lu_catalogue: 'nl_259',
      b_lu_start: '2025-05-01',
      b_lu_end: '2025-10-01',
    });
    const page = await harvestsOf(maize.b_lu);
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ b_lu_harvest_date: '2025-10-01', b_lu_yield: 4900, b_lu_n_harvestable: 16, b_lu_cp: 103 });
  });

  it('gives grass (harvested more often) created with b_lu_end no harvest, nor a crop harvested once without an end', async () => {
    const grass = await createCultivation(t.app, user.key, fieldId, {
      b_lu_catalogue: 'nl_265',
      b_lu_start: '2025-01-01',
      b_lu_end: '2025-12-31',
    });
    expect(await harvestsOf(grass.b_lu)).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
    const wheat = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_233', b_lu_start: '2024-10-15' });
    expect((await harvestsOf(wheat.b_lu)).pagination.total).toBe(0);
  });

  it('updates with PATCH and answers 200 with the cultivation and its catalogue columns', async () => {
    const grass = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' });
    const response = await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, {
      b_lu_end: '2025-11-30',
      m_cropresidue: true,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      b_lu: grass.b_lu,
      b_lu_start: '2025-01-01',
      b_lu_end: '2025-11-30',
      m_cropresidue: true,
      b_lu_name: 'grasland, blijvend',
    });
    const crop = await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_catalogue: 'nl_266', b_lu_end: null });
    expect(await crop.json()).toMatchObject({
      b_lu_catalogue: 'nl_266',
      b_lu_name: 'grasland, tijdelijk',
      b_lu_end: null,
      m_cropresidue: true,
    });
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_catalogue: 'nl_0' }),
      422,
      'unprocessable-entity',
    );
    expect(await get(`/api/cultivations/${grass.b_lu}`)).toMatchObject({ b_lu_catalogue: 'nl_266' });
  });

  it('refuses a PATCH whose b_lu_end is before the stored b_lu_start with 409, and one with both out of order with 422', async () => {
    const grass = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-03-01' });
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_end: '2025-02-01' }),
      409,
      'conflict',
    );
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_start: '2025-05-01', b_lu_end: '2025-04-01' }),
      422,
      'unprocessable-entity',
    );
    const ended = await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_end: '2025-10-01' });
    expect(ended.status).toBe(200);
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_start: '2025-10-02' }),
      409,
      'conflict',
    );
    expect(await get(`/api/cultivations/${grass.b_lu}`)).toMatchObject({ b_lu_start: '2025-03-01', b_lu_end: '2025-10-01' });
  });

  it('refuses with 409 a PATCH that moves b_lu_start after an existing harvest', async () => {
    const grass = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-03-01' });
    await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-05-15', b_lu_yield: 3000, b_lu_cp: 170 });
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_start: '2025-05-16' }),
      409,
      'conflict',
    );
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_end: '2025-05-14' }),
      409,
      'conflict',
    );
    const onTheDay = await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_start: '2025-05-15' });
    expect(onTheDay.status).toBe(200);

    const wheat = await createCultivation(t.app, user.key, fieldId, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-15',
      b_lu_end: '2025-08-01',
    });
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${wheat.b_lu}`, { b_lu_start: '2025-08-02' }),
      409,
      'conflict',
    );
    // a crop harvested once is harvested on its end date: another end contradicts the harvest
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${wheat.b_lu}`, { b_lu_end: '2025-08-05' }),
      409,
      'conflict',
    );
    expect(await get(`/api/cultivations/${wheat.b_lu}`)).toMatchObject({ b_lu_start: '2024-10-15', b_lu_end: '2025-08-01' });
  });

  it('gives a crop harvested once its harvest when a PATCH gives it an end date', async () => {
    const wheat = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_233', b_lu_start: '2024-10-15' });
    const response = await call(t.app, user.key, 'PATCH', `/api/cultivations/${wheat.b_lu}`, { b_lu_end: '2025-07-20' });
    expect(response.status).toBe(200);
    const page = await harvestsOf(wheat.b_lu);
    expect(page.data.map((h) => [h.b_lu_harvest_date, h.b_lu_yield, h.b_lu_n_harvestable])).toEqual([['2025-07-20', 7830, 24]]);
  });

  it('refuses with 409 a PATCH that changes the crop to one that is not harvested while the cultivation has harvests', async () => {
    const grass = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' });
    await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-05-01', b_lu_yield: 3000, b_lu_cp: 170 });
    // nl_335 (natuurterreinen) has b_lu_harvestable none: its harvests could not have been stored
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_catalogue: 'nl_335' }),
      409,
      'conflict',
    );
    expect(await get(`/api/cultivations/${grass.b_lu}`)).toMatchObject({ b_lu_catalogue: 'nl_265' });
  });

  it('refuses with 409 a PATCH that changes a crop with several harvests into a crop harvested once', async () => {
    const grass = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' });
    await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-05-01', b_lu_yield: 3000, b_lu_cp: 170 });
    await createHarvest(t.app, user.key, grass.b_lu, { b_lu_harvest_date: '2025-06-01', b_lu_yield: 3000, b_lu_cp: 170 });
    // winter wheat is harvested once: two harvests contradict it
    await expectProblem(
      await call(t.app, user.key, 'PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_catalogue: 'nl_233' }),
      409,
      'conflict',
    );
    expect(await get(`/api/cultivations/${grass.b_lu}`)).toMatchObject({ b_lu_catalogue: 'nl_265', b_lu_end: null });
  });

  it('refuses with 409 a PATCH that clears b_lu_end of a crop harvested once that has its harvest', async () => {
    // a crop harvested once ends on its harvest (docs/calculations.md); another end date is 409 already, no end is the same contradiction
    const wheat = await createCultivation(t.app, user.key, fieldId, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-15',
      b_lu_end: '2025-08-01',
    });
    await expectProblem(await call(t.app, user.key, 'PATCH', `/api/cultivations/${wheat.b_lu}`, { b_lu_end: null }), 409, 'conflict');
    expect(await get(`/api/cultivations/${wheat.b_lu}`)).toMatchObject({ b_lu_end: '2025-08-01' });
  });

  it('refuses a date in the year 0000 (no such year in PostgreSQL) with 400, in a body and in a filter', async () => {
    const body = await expectProblem(
      await call(t.app, user.key, 'POST', `/api/fields/${fieldId}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '0000-01-01' }),
      400,
      'validation-failed',
    );
    expect(fieldsOf(body)).toEqual(['b_lu_start']);
    await expectProblem(
      await call(t.app, user.key, 'GET', `/api/fields/${fieldId}/cultivations?start=0000-01-01`),
      400,
      'validation-failed',
    );
    const earliest = await call(t.app, user.key, 'GET', `/api/fields/${fieldId}/cultivations?start=0001-01-01`);
    expect(earliest.status).toBe(200);
  });

  describe('list with start and end', () => {
    let field: string;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      field = await newField();
      const periods: Array<[string, string, string | null]> = [
        ['a', '2024-03-01', '2024-09-01'],
        ['b', '2025-03-01', null],
        ['c', '2025-01-01', '2025-02-01'],
        ['d', '2023-01-01', '2023-12-31'],
      ];
      for (const [name, start, end] of periods) {
        ids[name] = (await createCultivation(t.app, user.key, field, { b_lu_catalogue: 'nl_265', b_lu_start: start, b_lu_end: end })).b_lu;
      }
    });
    const listed = async (query: string) => {
      const page = await get<Page<CultivationBody>>(`/api/fields/${field}/cultivations${query}`);
      const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
      expect(page.pagination.total).toBe(page.data.length);
      return page.data.map((c) => names[c.b_lu]);
    };

    it('lists all, oldest first, with the envelope, without a window', async () => {
      expect(await listed('')).toEqual(['a', 'b', 'c', 'd']);
      const page = await get<Page<CultivationBody>>(`/api/fields/${field}/cultivations?limit=2&offset=1`);
      expect(page.data.map((c) => c.b_lu)).toEqual([ids.b, ids.c]);
      expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
    });

    it.each([
      ['?start=2025-01-15&end=2025-12-31', ['b', 'c']],
      ['?start=2024-09-01', ['a', 'b', 'c']],
      ['?start=2024-09-02', ['b', 'c']],
      ['?end=2024-03-01', ['a', 'd']],
      ['?end=2024-02-29', ['d']],
      ['?start=2026-06-01', ['b']],
      ['?start=2030-01-01&end=2030-12-31', ['b']],
      ['?start=2025-02-01&end=2025-02-01', ['c']],
      ['?start=2023-12-31&end=2023-12-31', ['d']],
      ['?start=2024-10-01&end=2024-12-31', []],
    ])('lists the cultivations whose period overlaps %s (an open end is still running)', async (query, expected) => {
      expect(await listed(query)).toEqual(expected);
    });

    it('refuses end before start with 422, a malformed or impossible date with 400', async () => {
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/fields/${field}/cultivations?start=2025-02-01&end=2025-01-31`),
        422,
        'unprocessable-entity',
      );
      const malformed = await expectProblem(
        await call(t.app, user.key, 'GET', `/api/fields/${field}/cultivations?start=2025-1-1`),
        400,
        'validation-failed',
      );
      expect(fieldsOf(malformed)).toEqual(['start']);
      const impossible = await expectProblem(
        await call(t.app, user.key, 'GET', `/api/fields/${field}/cultivations?end=2025-02-30`),
        400,
        'validation-failed',
      );
      expect(fieldsOf(impossible)).toEqual(['end']);
    });
  });

  it('hard deletes with 204, with its harvests; then GET, PATCH and a repeated DELETE answer 404', async () => {
    const wheat = await createCultivation(t.app, user.key, fieldId, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-15',
      b_lu_end: '2025-08-01',
    });
    const harvest = (await harvestsOf(wheat.b_lu)).data[0]!;
    const response = await call(t.app, user.key, 'DELETE', `/api/cultivations/${wheat.b_lu}`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectProblem(await call(t.app, user.key, 'GET', `/api/cultivations/${wheat.b_lu}`), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'PATCH', `/api/cultivations/${wheat.b_lu}`, { m_cropresidue: true }), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'GET', `/api/cultivations/${wheat.b_lu}/harvests`), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'GET', `/api/harvests/${harvest.b_id_harvesting}`), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/cultivations/${wheat.b_lu}`), 404, 'not-found');
  });

  it("keeps the field's fertilizer applications when a cultivation is deleted", async () => {
    const field = await newField();
    const grass = await createCultivation(t.app, user.key, field, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' });
    const fertilizer = await acquireFertilizer(t.app, user.key, farmId, 'BAAT050');
    const application = await createApplication(t.app, user.key, field, {
      p_id: fertilizer.p_id,
      p_app_amount_display: 20,
      p_app_date: '2025-03-15',
    });
    expect((await call(t.app, user.key, 'DELETE', `/api/cultivations/${grass.b_lu}`)).status).toBe(204);
    expect(await get(`/api/fertilizer-applications/${application.p_app_id}`)).toEqual(application);
    expect((await get<Page<unknown>>(`/api/fields/${field}/fertilizer-applications`)).pagination.total).toBe(1);
  });

  it("answers 404 for another user's cultivation and field on every endpoint, and changes nothing", async () => {
    const grass = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' });
    const stranger = await signUpWithKey(t.app);
    const as = (method: string, path: string, body?: unknown) => call(t.app, stranger.key, method, path, body);
    await expectProblem(await as('GET', `/api/cultivations/${grass.b_lu}`), 404, 'not-found');
    await expectProblem(await as('PATCH', `/api/cultivations/${grass.b_lu}`, { b_lu_start: '2025-02-01' }), 404, 'not-found');
    await expectProblem(await as('DELETE', `/api/cultivations/${grass.b_lu}`), 404, 'not-found');
    await expectProblem(await as('GET', `/api/cultivations/${grass.b_lu}/harvests`), 404, 'not-found');
    await expectProblem(
      await as('POST', `/api/cultivations/${grass.b_lu}/harvests`, { b_lu_harvest_date: '2025-06-01' }),
      404,
      'not-found',
    );
    await expectProblem(await as('GET', `/api/fields/${fieldId}/cultivations`), 404, 'not-found');
    await expectProblem(
      await as('POST', `/api/fields/${fieldId}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' }),
      404,
      'not-found',
    );
    expect(await get(`/api/cultivations/${grass.b_lu}`)).toMatchObject({ b_lu_start: '2025-01-01' });
    expect((await harvestsOf(grass.b_lu)).pagination.total).toBe(0);
  });

  it('answers 404 for a cultivation that never existed', async () => {
    await expectProblem(await call(t.app, user.key, 'GET', '/api/cultivations/doesnotexist'), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'DELETE', '/api/cultivations/doesnotexist'), 404, 'not-found');
    await expectProblem(
      await call(t.app, user.key, 'POST', '/api/fields/doesnotexist/cultivations', { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' }),
      404,
      'not-found',
    );
  });
});
