// A farm's fertilizers (acquired from the catalogues) and fertilizer applications (docs/calculations.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { acquireFertilizer, createApplication, createField, type ApplicationBody } from '../helpers/fixtures.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}

const fieldsOf = (body: Record<string, unknown>) => (body.errors as Array<{ field: string }>).map((e) => e.field);

// Products of src/catalogues/data/fertilizers-baat.json
const CATTLE_SLURRY = 'BAAT050'; // Rundveedrijfmest, m3/ha, density 1.005
const BETACAL = 'BAAT006'; // Betacal-carbo, ton/ha
const UAN = 'BAAT003'; // Ammoniumnitraatureanoplossing, l/ha, density 1.3
const CONCENTRATE = 'BAAT035'; // Mineralenconcentraat, m3/ha, no density

describe.each(storageKinds)('fertilizers and applications on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let fieldId: string;
  let slurry: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    fieldId = (await createField(t.app, user.key, farmId)).b_id;
    slurry = (await acquireFertilizer(t.app, user.key, farmId, CATTLE_SLURRY)).p_id;
  });
  afterAll(() => t.close());

  const get = async <T>(path: string): Promise<T> => {
    const response = await call(t.app, user.key, 'GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const postApplication = (body: Record<string, unknown>, field = fieldId) =>
    call(t.app, user.key, 'POST', `/api/fields/${field}/fertilizer-applications`, {
      p_app_method: 'injection',
      p_app_date: '2025-04-01',
      ...body,
    });

  describe('fertilizers of a farm', () => {
    it('acquires a catalogue fertilizer with 201, a Location header and its catalogue values', async () => {
      const farm = (await createFarm(t.app, user.key)).b_id_farm;
      const response = await call(t.app, user.key, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: CATTLE_SLURRY });
      expect(response.status).toBe(201);
      const fertilizer = (await response.json()) as Record<string, unknown> & { p_id: string };
      expect(fertilizer).toMatchObject({
        p_id: expect.any(String),
        b_id_farm: farm,
        p_source: 'baat',
        p_id_catalogue: CATTLE_SLURRY,
        p_name_nl: 'Rundveedrijfmest',
        p_type: 'manure',
        p_app_amount_unit: 'm3/ha',
        p_n_rt: 4.1,
        p_nh4_rt: 1.9,
        p_no3_rt: 0,
        p_density: 1.005,
        p_dm: 74,
      });
      expect(fertilizer.p_id).not.toBe(CATTLE_SLURRY);
      expect(response.headers.get('location')).toBe(`/api/fertilizers/${fertilizer.p_id}`);
      expect(await get(`/api/fertilizers/${fertilizer.p_id}`)).toEqual(fertilizer);
      expect(await get(`/api/farms/${farm}/fertilizers`)).toEqual({ data: [fertilizer], pagination: { limit: 50, offset: 0, total: 1 } });
    });

    it('answers a farm fertilizer with exactly the properties the OpenAPI document gives FarmFertilizer', async () => {
      const document = (await (await t.app.request('/api/openapi.json')).json()) as {
        components: { schemas: Record<string, { properties: object }> };
      };
      const documented = Object.keys(document.components.schemas.FarmFertilizer!.properties).sort();
      const fertilizer = await get<Record<string, unknown>>(`/api/fertilizers/${slurry}`);
      expect(Object.keys(fertilizer).sort()).toEqual(documented);
      const listed = await get<Page<Record<string, unknown>>>(`/api/farms/${farmId}/fertilizers`);
      expect(Object.keys(listed.data[0]!).sort()).toEqual(documented);
    });

    it('refuses an unknown p_id_catalogue, or one of another catalogue than p_source, with 422', async () => {
      const farm = (await createFarm(t.app, user.key)).b_id_farm;
      await expectProblem(
        await call(t.app, user.key, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT999' }),
        422,
        'unprocessable-entity',
      );
      await expectProblem(
        await call(t.app, user.key, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: CATTLE_SLURRY, p_source: 'srm' }),
        422,
        'unprocessable-entity',
      );
      expect((await get<Page<unknown>>(`/api/farms/${farm}/fertilizers`)).pagination.total).toBe(0);
      const missing = await expectProblem(
        await call(t.app, user.key, 'POST', `/api/farms/${farm}/fertilizers`, {}),
        400,
        'validation-failed',
      );
      expect(fieldsOf(missing)).toEqual(['p_id_catalogue']);
    });

    it('refuses to delete a fertilizer an application uses with 409; after deleting the application 204, then 404', async () => {
      const fertilizer = await acquireFertilizer(t.app, user.key, farmId, CATTLE_SLURRY);
      const application = await createApplication(t.app, user.key, fieldId, { p_id: fertilizer.p_id, p_app_amount_display: 10 });
      await expectProblem(await call(t.app, user.key, 'DELETE', `/api/fertilizers/${fertilizer.p_id}`), 409, 'conflict');
      expect(await get(`/api/fertilizers/${fertilizer.p_id}`)).toMatchObject({ p_id: fertilizer.p_id });
      expect((await call(t.app, user.key, 'DELETE', `/api/fertilizer-applications/${application.p_app_id}`)).status).toBe(204);
      const response = await call(t.app, user.key, 'DELETE', `/api/fertilizers/${fertilizer.p_id}`);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      await expectProblem(await call(t.app, user.key, 'GET', `/api/fertilizers/${fertilizer.p_id}`), 404, 'not-found');
      await expectProblem(await call(t.app, user.key, 'DELETE', `/api/fertilizers/${fertilizer.p_id}`), 404, 'not-found');
    });
  });

  describe('applications', () => {
    it('stores 30 m3/ha of cattle slurry as exactly 30150 kg/ha, showing 30 m3/ha', async () => {
      const response = await postApplication({
        p_id: slurry,
        p_app_amount_display: 30,
        p_app_method: 'slotted coulter',
        p_app_date: '2025-03-15',
      });
      expect(response.status).toBe(201);
      const application = (await response.json()) as ApplicationBody;
      expect(application).toEqual({
        p_app_id: expect.any(String),
        b_id: fieldId,
        p_id: slurry,
        p_id_catalogue: CATTLE_SLURRY,
        p_name_nl: 'Rundveedrijfmest',
        p_app_amount: 30150,
        p_app_amount_display: 30,
        p_app_amount_unit: 'm3/ha',
        p_app_method: 'slotted coulter',
        p_app_date: '2025-03-15',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(response.headers.get('location')).toBe(`/api/fertilizer-applications/${application.p_app_id}`);
      expect(await get(`/api/fertilizer-applications/${application.p_app_id}`)).toEqual(application);
    });

    it.each([
      [BETACAL, 2.5, 'ton/ha', 2500],
      [BETACAL, 0.3, 'ton/ha', 300],
      [UAN, 100, 'l/ha', 130],
      [CATTLE_SLURRY, 12.5, 'm3/ha', 12562.5],
    ])('converts %s %d in %s to %d kg/ha', async (catalogueId, amount, unit, kgPerHa) => {
      const fertilizer = await acquireFertilizer(t.app, user.key, farmId, catalogueId);
      const application = await createApplication(t.app, user.key, fieldId, { p_id: fertilizer.p_id, p_app_amount_display: amount });
      expect(application).toMatchObject({ p_app_amount: kgPerHa, p_app_amount_display: amount, p_app_amount_unit: unit });
    });

    it('refuses a volume of a product without a density with 422', async () => {
      const fertilizer = await acquireFertilizer(t.app, user.key, farmId, CONCENTRATE);
      await expectProblem(await postApplication({ p_id: fertilizer.p_id, p_app_amount_display: 10 }), 422, 'unprocessable-entity');
    });

    it('refuses a p_id of another farm, or a catalogue id, with 422', async () => {
      const otherFarm = (await createFarm(t.app, user.key, { b_name_farm: 'Elders' })).b_id_farm;
      const foreign = await acquireFertilizer(t.app, user.key, otherFarm, CATTLE_SLURRY);
      const body = await expectProblem(
        await postApplication({ p_id: foreign.p_id, p_app_amount_display: 10 }),
        422,
        'unprocessable-entity',
      );
      expect(body.detail).toContain(foreign.p_id);
      await expectProblem(await postApplication({ p_id: CATTLE_SLURRY, p_app_amount_display: 10 }), 422, 'unprocessable-entity');
    });

    it("refuses a p_app_amount_unit other than the product's with 422, and accepts the product's own", async () => {
      await expectProblem(
        await postApplication({ p_id: slurry, p_app_amount_display: 10, p_app_amount_unit: 'ton/ha' }),
        422,
        'unprocessable-entity',
      );
      const same = await createApplication(t.app, user.key, fieldId, {
        p_id: slurry,
        p_app_amount_display: 10,
        p_app_amount_unit: 'm3/ha',
      });
      expect(same).toMatchObject({ p_app_amount: 10050, p_app_amount_unit: 'm3/ha' });
      const unknown = await expectProblem(
        await postApplication({ p_id: slurry, p_app_amount_display: 10, p_app_amount_unit: 'kg/m2' }),
        400,
        'validation-failed',
      );
      expect(fieldsOf(unknown)).toEqual(['p_app_amount_unit']);
    });

    it('refuses an unknown p_app_method with 400 naming it; null or absent is stored as null', async () => {
      const body = await expectProblem(
        await postApplication({ p_id: slurry, p_app_amount_display: 10, p_app_method: 'sprinkling' }),
        400,
        'validation-failed',
      );
      expect(fieldsOf(body)).toEqual(['p_app_method']);
      expect(
        await createApplication(t.app, user.key, fieldId, { p_id: slurry, p_app_amount_display: 10, p_app_method: null }),
      ).toMatchObject({ p_app_method: null });
      const absent = await call(t.app, user.key, 'POST', `/api/fields/${fieldId}/fertilizer-applications`, {
        p_id: slurry,
        p_app_amount_display: 10,
        p_app_date: '2025-04-01',
      });
      expect(absent.status).toBe(201);
      expect(await absent.json()).toMatchObject({ p_app_method: null });
    });

    it('refuses an application date in the year 0000 with 400', async () => {
      expect(
        fieldsOf(
          await expectProblem(
            await postApplication({ p_id: slurry, p_app_amount_display: 10, p_app_date: '0000-01-01' }),
            400,
            'validation-failed',
          ),
        ),
      ).toEqual(['p_app_date']);
    });

    it.each([
      [{ p_app_amount_display: -1 }, 'p_app_amount_display'],
      [{ p_app_amount_display: '10' }, 'p_app_amount_display'],
      [{ p_app_amount_display: 10, p_app_date: '2025-02-30' }, 'p_app_date'],
      [{ p_app_amount_display: 10, p_app_amount: 10 }, 'p_app_amount'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      expect(fieldsOf(await expectProblem(await postApplication({ p_id: slurry, ...body }), 400, 'validation-failed'))).toEqual([field]);
    });

    it('recomputes p_app_amount when a PATCH changes the amount, and keeps it otherwise', async () => {
      const application = await createApplication(t.app, user.key, fieldId, { p_id: slurry, p_app_amount_display: 30 });
      const patch = (body: unknown) => call(t.app, user.key, 'PATCH', `/api/fertilizer-applications/${application.p_app_id}`, body);
      const response = await patch({ p_app_amount_display: 20 });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ p_app_amount: 20100, p_app_amount_display: 20, p_app_amount_unit: 'm3/ha' });
      const moved = await patch({ p_app_date: '2025-05-01', p_app_method: null });
      expect(await moved.json()).toMatchObject({
        p_app_amount: 20100,
        p_app_amount_display: 20,
        p_app_date: '2025-05-01',
        p_app_method: null,
      });
      const betacal = await acquireFertilizer(t.app, user.key, farmId, BETACAL);
      const swapped = await patch({ p_id: betacal.p_id });
      expect(await swapped.json()).toMatchObject({
        p_id: betacal.p_id,
        p_id_catalogue: BETACAL,
        p_app_amount: 20000,
        p_app_amount_display: 20,
        p_app_amount_unit: 'ton/ha',
      });
      await expectProblem(await patch({ p_app_amount_unit: 'm3/ha' }), 422, 'unprocessable-entity');
      await expectProblem(await patch({ p_app_amount_display: -2 }), 400, 'validation-failed');
      expect(await get(`/api/fertilizer-applications/${application.p_app_id}`)).toMatchObject({ p_id: betacal.p_id, p_app_amount: 20000 });
    });

    describe('list with start and end', () => {
      let field: string;
      beforeAll(async () => {
        field = (await createField(t.app, user.key, farmId)).b_id;
        for (const date of ['2025-06-01', '2025-02-15', '2025-04-30']) {
          await createApplication(t.app, user.key, field, { p_id: slurry, p_app_amount_display: 10, p_app_date: date });
        }
      });
      const dates = async (query: string) => {
        const page = await get<Page<ApplicationBody>>(`/api/fields/${field}/fertilizer-applications${query}`);
        expect(page.pagination.total).toBe(page.data.length);
        return page.data.map((a) => a.p_app_date);
      };

      it.each([
        ['', ['2025-06-01', '2025-02-15', '2025-04-30']],
        ['?start=2025-04-30', ['2025-06-01', '2025-04-30']],
        ['?end=2025-04-30', ['2025-02-15', '2025-04-30']],
        ['?start=2025-02-15&end=2025-02-15', ['2025-02-15']],
        ['?start=2025-02-16&end=2025-04-29', []],
      ])('lists the applications dated within %s', async (query, expected) => {
        expect(await dates(query)).toEqual(expected);
      });

      it('pages, and refuses end before start with 422 and a malformed date with 400', async () => {
        const page = await get<Page<ApplicationBody>>(`/api/fields/${field}/fertilizer-applications?limit=2&offset=1`);
        expect(page.data.map((a) => a.p_app_date)).toEqual(['2025-02-15', '2025-04-30']);
        expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 3 });
        await expectProblem(
          await call(t.app, user.key, 'GET', `/api/fields/${field}/fertilizer-applications?start=2025-05-01&end=2025-04-01`),
          422,
          'unprocessable-entity',
        );
        await expectProblem(
          await call(t.app, user.key, 'GET', `/api/fields/${field}/fertilizer-applications?end=2025-06-31`),
          400,
          'validation-failed',
        );
      });
    });

    it('hard deletes an application with 204; then GET, PATCH and a repeated DELETE answer 404', async () => {
      const application = await createApplication(t.app, user.key, fieldId, { p_id: slurry, p_app_amount_display: 5 });
      expect((await call(t.app, user.key, 'DELETE', `/api/fertilizer-applications/${application.p_app_id}`)).status).toBe(204);
      await expectProblem(await call(t.app, user.key, 'GET', `/api/fertilizer-applications/${application.p_app_id}`), 404, 'not-found');
      await expectProblem(
        await call(t.app, user.key, 'PATCH', `/api/fertilizer-applications/${application.p_app_id}`, { p_app_amount_display: 1 }),
        404,
        'not-found',
      );
      await expectProblem(await call(t.app, user.key, 'DELETE', `/api/fertilizer-applications/${application.p_app_id}`), 404, 'not-found');
    });

    it("answers 404 for another user's fertilizers and applications, and changes nothing", async () => {
      const application = await createApplication(t.app, user.key, fieldId, { p_id: slurry, p_app_amount_display: 5 });
      const stranger = await signUpWithKey(t.app);
      const as = (method: string, path: string, body?: unknown) => call(t.app, stranger.key, method, path, body);
      await expectProblem(await as('GET', `/api/fertilizers/${slurry}`), 404, 'not-found');
      await expectProblem(await as('DELETE', `/api/fertilizers/${slurry}`), 404, 'not-found');
      await expectProblem(await as('GET', `/api/farms/${farmId}/fertilizers`), 404, 'not-found');
      await expectProblem(await as('POST', `/api/farms/${farmId}/fertilizers`, { p_id_catalogue: CATTLE_SLURRY }), 404, 'not-found');
      await expectProblem(await as('GET', `/api/fertilizer-applications/${application.p_app_id}`), 404, 'not-found');
      await expectProblem(
        await as('PATCH', `/api/fertilizer-applications/${application.p_app_id}`, { p_app_amount_display: 1 }),
        404,
        'not-found',
      );
      await expectProblem(await as('DELETE', `/api/fertilizer-applications/${application.p_app_id}`), 404, 'not-found');
      await expectProblem(await as('GET', `/api/fields/${fieldId}/fertilizer-applications`), 404, 'not-found');
      expect(await get(`/api/fertilizer-applications/${application.p_app_id}`)).toEqual(application);
    });

    it("refuses an application on a stranger's field using the stranger's own fertilizer id with 404", async () => {
      const stranger = await signUpWithKey(t.app);
      const theirFarm = (await createFarm(t.app, stranger.key)).b_id_farm;
      const theirs = await acquireFertilizer(t.app, stranger.key, theirFarm, CATTLE_SLURRY);
      // their fertilizer on my field: not one of my farm's fertilizers
      await expectProblem(await postApplication({ p_id: theirs.p_id, p_app_amount_display: 10 }), 422, 'unprocessable-entity');
      // my fertilizer on their field: no access to the field
      const theirField = (await createField(t.app, stranger.key, theirFarm)).b_id;
      await expectProblem(await postApplication({ p_id: slurry, p_app_amount_display: 10 }, theirField), 404, 'not-found');
    });
  });
});
