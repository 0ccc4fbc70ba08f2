// Soil analyses: parameters with their ranges, read back flat; depth rules; PATCH; date filters; hard delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createField, createSoilAnalysis } from '../helpers/fixtures.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}
type Analysis = Record<string, unknown> & { a_id: string };

const fieldsOf = (body: Record<string, unknown>) => (body.errors as Array<{ field: string }>).map((e) => e.field);

const measured = {
  a_som_loi: 3.5,
  a_n_rt: 1200,
  a_c_of: 20,
  a_cn_fr: 16.7,
  a_density_sa: 1.35,
  a_ph_cc: 5.6,
  a_p_al: 42,
  b_soiltype_agr: 'dekzand',
  b_gwl_class: 'IIIb',
};

describe.each(storageKinds)('soil analyses on %s', (kind) => {
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
  const post = (body: unknown, field = fieldId) => call(t.app, user.key, 'POST', `/api/fields/${field}/soil-analyses`, body);
  const patch = (a_id: string, body: unknown) => call(t.app, user.key, 'PATCH', `/api/soil-analyses/${a_id}`, body);

  it('creates an analysis with 201 and a Location header, and reads its parameters back flat', async () => {
    const sampling = { a_source: 'Eurofins', a_date: '2025-02-20', a_depth_upper: 0, a_depth_lower: 30, b_sampling_date: '2025-02-10' };
    const response = await post({ ...sampling, ...measured });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    const analysis = (await response.json()) as Analysis;
    expect(analysis).toEqual({
      a_id: expect.any(String),
      b_id: fieldId,
      ...sampling,
      ...measured,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(response.headers.get('location')).toBe(`/api/soil-analyses/${analysis.a_id}`);
    expect(await get(`/api/soil-analyses/${analysis.a_id}`)).toEqual(analysis);
    const page = await get<Page<Analysis>>(`/api/fields/${fieldId}/soil-analyses`);
    expect(page.data.find((a) => a.a_id === analysis.a_id)).toEqual(analysis);
  });

  it('fills the defaults of an empty analysis: source other, upper depth 0, no lower depth, no dates', async () => {
    const analysis = await createSoilAnalysis(t.app, user.key, fieldId, {});
    expect(analysis).toEqual({
      a_id: expect.any(String),
      b_id: fieldId,
      a_source: 'other',
      a_date: null,
      a_depth_upper: 0,
      a_depth_lower: null,
      b_sampling_date: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it.each([
    ['a_ph_cc', 14],
    ['a_ph_cc', 1.9],
    ['a_som_loi', 120],
    ['a_som_loi', -0.1],
    ['a_density_sa', 0.1],
    ['a_n_rt', -5],
    ['a_p_al', 251],
    ['a_depth_upper', -1],
  ])('refuses %s = %d with 400 naming it, and stores nothing', async (name, value) => {
    const field = (await createField(t.app, user.key, farmId)).b_id;
    const body = await expectProblem(await post({ a_som_loi: 3, [name]: value }, field), 400, 'validation-failed');
    expect(fieldsOf(body)).toEqual([name]);
    expect((await get<Page<Analysis>>(`/api/fields/${field}/soil-analyses`)).pagination.total).toBe(0);
  });

  it('names the unit of a bound in the message, and no unit for a dimensionless parameter', async () => {
    const body = (await expectProblem(await post({ a_ph_cc: 14, a_cn_fr: -1, a_som_loi: 120 }), 400, 'validation-failed')) as {
      errors: Array<{ field: string; message: string }>;
    };
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'a_ph_cc', message: 'must be at most 10' },
        { field: 'a_cn_fr', message: 'must be at least 0' },
        { field: 'a_som_loi', message: 'must be at most 100 %' },
      ]),
    );
  });

  it('accepts the ends of a range', async () => {
    const analysis = await createSoilAnalysis(t.app, user.key, fieldId, { a_ph_cc: 10, a_som_loi: 100, a_density_sa: 0.5, a_n_rt: 0 });
    expect(analysis).toMatchObject({ a_ph_cc: 10, a_som_loi: 100, a_density_sa: 0.5, a_n_rt: 0 });
  });

  it.each([
    [{ b_soiltype_agr: 'klei' }, 'b_soiltype_agr'],
    [{ b_soiltype_agr: 'DEKZAND' }, 'b_soiltype_agr'],
    [{ b_gwl_class: 'IX' }, 'b_gwl_class'],
    [{ a_som_loi: '3.5' }, 'a_som_loi'],
    [{ a_unknown_parameter: 1 }, 'a_unknown_parameter'],
    [{ b_sampling_date: '2025-13-01' }, 'b_sampling_date'],
    [{ b_sampling_date: '2025-02-29' }, 'b_sampling_date'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    expect(fieldsOf(await expectProblem(await post(body), 400, 'validation-failed'))).toEqual([field]);
  });

  it('refuses a sampling date in the year 0000 with 400, in a body and in a filter', async () => {
    expect(fieldsOf(await expectProblem(await post({ b_sampling_date: '0000-06-01' }), 400, 'validation-failed'))).toEqual([
      'b_sampling_date',
    ]);
    await expectProblem(
      await call(t.app, user.key, 'GET', `/api/fields/${fieldId}/soil-analyses?start=0000-01-01`),
      400,
      'validation-failed',
    );
  });

  it('names the type, not "is required", for a parameter of the wrong type', async () => {
    const body = await expectProblem(await post({ a_som_loi: '3.5' }), 400, 'validation-failed');
    expect(body.errors).toEqual([{ field: 'a_som_loi', message: expect.not.stringMatching(/^is required$/) }]);
  });

  it.each([[{ a_depth_upper: 30, a_depth_lower: 30 }], [{ a_depth_upper: 30, a_depth_lower: 10 }], [{ a_depth_lower: 0 }]])(
    'refuses a lower depth not below the upper depth in one request (%j) with 422',
    async (depths) => {
      const body = await expectProblem(await post(depths), 422, 'unprocessable-entity');
      expect(body.detail).toContain('a_depth_lower');
    },
  );

  it('refuses with 409 a PATCH that puts a depth on the wrong side of the stored other depth', async () => {
    const analysis = await createSoilAnalysis(t.app, user.key, fieldId, { a_depth_upper: 10, a_depth_lower: 30, a_som_loi: 3 });
    await expectProblem(await patch(analysis.a_id, { a_depth_upper: 40 }), 409, 'conflict');
    await expectProblem(await patch(analysis.a_id, { a_depth_upper: 30 }), 409, 'conflict');
    await expectProblem(await patch(analysis.a_id, { a_depth_lower: 5 }), 409, 'conflict');
    await expectProblem(await patch(analysis.a_id, { a_depth_upper: 50, a_depth_lower: 40 }), 422, 'unprocessable-entity');
    expect(await get(`/api/soil-analyses/${analysis.a_id}`)).toMatchObject({ a_depth_upper: 10, a_depth_lower: 30 });
    const both = await patch(analysis.a_id, { a_depth_upper: 40, a_depth_lower: 60 });
    expect(both.status).toBe(200);
    expect(await both.json()).toMatchObject({ a_depth_upper: 40, a_depth_lower: 60, a_som_loi: 3 });
    const open = await patch(analysis.a_id, { a_depth_lower: null });
    expect(await open.json()).toMatchObject({ a_depth_upper: 40, a_depth_lower: null });
  });

  it('changes, keeps and (with null) clears parameters on PATCH', async () => {
    const analysis = await createSoilAnalysis(t.app, user.key, fieldId, { ...measured, b_sampling_date: '2025-02-10' });
    const response = await patch(analysis.a_id, { a_som_loi: 4.2, a_n_rt: null, b_gwl_class: null, a_k_cc: 120 });
    expect(response.status).toBe(200);
    const changed = (await response.json()) as Analysis;
    expect(changed).toMatchObject({ a_som_loi: 4.2, a_c_of: 20, a_k_cc: 120, b_soiltype_agr: 'dekzand', b_sampling_date: '2025-02-10' });
    expect(changed.a_n_rt ?? null).toBeNull();
    expect(changed.b_gwl_class ?? null).toBeNull();
    const fetched = await get<Analysis>(`/api/soil-analyses/${analysis.a_id}`);
    expect(fetched).toEqual(changed);
    const dateCleared = (await (await patch(analysis.a_id, { b_sampling_date: null, a_source: 'lab 2' })).json()) as Analysis;
    expect(dateCleared).toMatchObject({ b_sampling_date: null, a_source: 'lab 2', a_som_loi: 4.2 });
  });

  it('refuses an out-of-range or unknown parameter on PATCH with 400, and changes nothing', async () => {
    const analysis = await createSoilAnalysis(t.app, user.key, fieldId, { a_ph_cc: 6 });
    expect(fieldsOf(await expectProblem(await patch(analysis.a_id, { a_ph_cc: 14 }), 400, 'validation-failed'))).toEqual(['a_ph_cc']);
    expect(fieldsOf(await expectProblem(await patch(analysis.a_id, { b_soiltype_agr: 'klei' }), 400, 'validation-failed'))).toEqual([
      'b_soiltype_agr',
    ]);
    expect(fieldsOf(await expectProblem(await patch(analysis.a_id, { a_id: 'x' }), 400, 'validation-failed'))).toEqual(['a_id']);
    expect(await get(`/api/soil-analyses/${analysis.a_id}`)).toMatchObject({ a_ph_cc: 6 });
  });

  describe('list with start and end', () => {
    let field: string;
    const byDate: Record<string, string> = {};
    beforeAll(async () => {
      field = (await createField(t.app, user.key, farmId)).b_id;
      for (const date of ['2024-11-30', '2025-03-01', '2025-02-28']) {
        byDate[date] = (await createSoilAnalysis(t.app, user.key, field, { b_sampling_date: date, a_som_loi: 3 })).a_id;
      }
    });
    const dates = async (query: string) => {
      const page = await get<Page<Analysis>>(`/api/fields/${field}/soil-analyses${query}`);
      expect(page.pagination.total).toBe(page.data.length);
      return page.data.map((a) => a.b_sampling_date);
    };

    it.each([
      ['', ['2024-11-30', '2025-03-01', '2025-02-28']],
      ['?start=2025-01-01', ['2025-03-01', '2025-02-28']],
      ['?end=2025-02-28', ['2024-11-30', '2025-02-28']],
      ['?start=2025-03-01&end=2025-03-01', ['2025-03-01']],
      ['?start=2024-12-01&end=2025-02-27', []],
    ])('lists the analyses sampled within %s', async (query, expected) => {
      expect(await dates(query)).toEqual(expected);
    });

    it('refuses end before start with 422 and a malformed date with 400', async () => {
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/fields/${field}/soil-analyses?start=2025-03-01&end=2025-02-28`),
        422,
        'unprocessable-entity',
      );
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/fields/${field}/soil-analyses?start=yesterday`),
        400,
        'validation-failed',
      );
    });
  });

  it('hard deletes with 204; then GET, PATCH and repeated DELETEs answer 404', async () => {
    const analysis = await createSoilAnalysis(t.app, user.key, fieldId, { a_som_loi: 2 });
    const response = await call(t.app, user.key, 'DELETE', `/api/soil-analyses/${analysis.a_id}`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectProblem(await call(t.app, user.key, 'GET', `/api/soil-analyses/${analysis.a_id}`), 404, 'not-found');
    await expectProblem(await patch(analysis.a_id, { a_som_loi: 3 }), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/soil-analyses/${analysis.a_id}`), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/soil-analyses/${analysis.a_id}`), 404, 'not-found');
  });

  it("answers 404 for another user's analysis and field, and changes nothing", async () => {
    const analysis = await createSoilAnalysis(t.app, user.key, fieldId, { a_som_loi: 2 });
    const stranger = await signUpWithKey(t.app);
    const as = (method: string, path: string, body?: unknown) => call(t.app, stranger.key, method, path, body);
    await expectProblem(await as('GET', `/api/soil-analyses/${analysis.a_id}`), 404, 'not-found');
    await expectProblem(await as('PATCH', `/api/soil-analyses/${analysis.a_id}`, { a_som_loi: 9 }), 404, 'not-found');
    await expectProblem(await as('DELETE', `/api/soil-analyses/${analysis.a_id}`), 404, 'not-found');
    await expectProblem(await as('GET', `/api/fields/${fieldId}/soil-analyses`), 404, 'not-found');
    await expectProblem(await as('POST', `/api/fields/${fieldId}/soil-analyses`, { a_som_loi: 9 }), 404, 'not-found');
    expect(await get(`/api/soil-analyses/${analysis.a_id}`)).toEqual(analysis);
  });
});
