// A calculation never changes stored data; the options body is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { tablesDigest } from '../helpers/digest.js';
import { created, createField, makeCalculable } from '../helpers/fixtures.js';

const TABLES = [
  'users',
  'sessions',
  'farms',
  'farm_access',
  'fields',
  'cultivations',
  'harvests',
  'soil_analyses',
  'farm_fertilizers',
  'fertilizer_applications',
  'derogations',
  'grazing_intentions',
  'organic_certifications',
  'audit_log',
];

describe.each(storageKinds)('calculations on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let fieldId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    fieldId = (await createField(t.app, user.key, farmId)).b_id;
    await makeCalculable(t.app, user.key, fieldId);
  });
  afterAll(() => t.close());

  const paths = () => [
    `/api/fields/${fieldId}/calculations/nitrogen-balance`,
    `/api/farms/${farmId}/calculations/nitrogen-balance`,
    `/api/fields/${fieldId}/calculations/dose`,
    `/api/fields/${fieldId}/calculations/organic-matter-balance`,
    `/api/farms/${farmId}/calculations/organic-matter-balance`,
  ];

  it('changes no row of any table', async () => {
    const before = await tablesDigest(t, TABLES);
    for (const path of paths()) {
      expect((await call(t.app, user.key, 'POST', path, { start: '2025-01-01', end: '2025-12-31' })).status).toBe(200);
      expect((await call(t.app, user.key, 'POST', path)).status).toBe(200);
    }
    for (const path of [`/api/fields/${fieldId}/calculations/norms`, `/api/farms/${farmId}/calculations/norms`]) {
      expect((await call(t.app, user.key, 'POST', path, { year: 2025 })).status).toBe(200);
    }
    expect(await tablesDigest(t, TABLES)).toBe(before);
  });

  it('takes the current calendar year when no timeframe is sent', async () => {
    const year = new Date().getUTCFullYear();
    const explicit = await (await call(t.app, user.key, 'POST', paths()[0]!, { start: `${year}-01-01`, end: `${year}-12-31` })).json();
    expect(await (await call(t.app, user.key, 'POST', paths()[0]!)).json()).toEqual(explicit);
    expect(await (await call(t.app, user.key, 'POST', paths()[0]!, {})).json()).toEqual(explicit);
  });

  it('refuses end before start (422), malformed dates and unknown options (400)', async () => {
    for (const path of paths()) {
      await expectProblem(
        await call(t.app, user.key, 'POST', path, { start: '2025-12-31', end: '2025-01-01' }),
        422,
        'unprocessable-entity',
      );
      await expectProblem(await call(t.app, user.key, 'POST', path, { start: '2025-02-30' }), 400, 'validation-failed');
      await expectProblem(await call(t.app, user.key, 'POST', path, { year: 2025 }), 400, 'validation-failed');
    }
  });

  it('takes a timeframe of at most 10 years, and refuses a longer one with 422 naming the bound', async () => {
    const year = new Date().getUTCFullYear();
    for (const path of paths()) {
      expect((await call(t.app, user.key, 'POST', path, { start: '2016-01-01', end: '2025-12-31' })).status).toBe(200);
      for (const longer of [
        { start: '0001-01-01', end: '9999-12-31' },
        { start: '2016-01-01', end: '2026-01-01' },
        { start: `${year - 10}-01-01` },
        { end: `${year + 10}-01-01` },
      ]) {
        const problem = await expectProblem(await call(t.app, user.key, 'POST', path, longer), 422, 'unprocessable-entity');
        expect(JSON.stringify(problem)).toContain('longer than 10 years');
      }
    }
  });

  it('answers a field without usable soil values with 200, balance null and what to add', async () => {
    const bare = (await createField(t.app, user.key, farmId, { b_name: 'Zonder analyse' })).b_id;
    const response = await call(t.app, user.key, 'POST', `/api/fields/${bare}/calculations/nitrogen-balance`, {
      start: '2025-01-01',
      end: '2025-12-31',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { balance: unknown; errorMessage: string; b_id: string };
    expect(body.balance).toBeNull();
    expect(body.b_id).toBe(bare);
    expect(body.errorMessage).toContain(
      'Missing required soil parameters: b_soiltype_agr, a_n_rt, a_c_of, a_cn_fr, a_density_sa, a_som_loi, b_gwl_class',
    );
    expect(body.errorMessage).toContain(`POST /api/fields/${bare}/soil-analyses`);
  });

  it('answers a farm without fields in the timeframe with zeros and "No fields in input"', async () => {
    const empty = (await createFarm(t.app, user.key)).b_id_farm;
    const body = (await (
      await call(t.app, user.key, 'POST', `/api/farms/${empty}/calculations/nitrogen-balance`, { start: '2025-01-01', end: '2025-12-31' })
    ).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      balance: 0,
      target: 0,
      fields: [],
      hasErrors: true,
      fieldErrorMessages: ['No fields in input'],
      errorMessage: 'No fields in input',
    });
  });

  it('gives the dose per application as well as in total', async () => {
    const fertilizer = await created<{ p_id: string }>(
      call(t.app, user.key, 'POST', `/api/farms/${farmId}/fertilizers`, { p_id_catalogue: 'BAAT028' }),
    );
    const application = await created<{ p_app_id: string }>(
      call(t.app, user.key, 'POST', `/api/fields/${fieldId}/fertilizer-applications`, {
        p_id: fertilizer.p_id,
        p_app_amount_display: 350,
        p_app_date: '2025-03-01',
        p_app_method: 'broadcasting',
      }),
    );
    const dose = (await (
      await call(t.app, user.key, 'POST', `/api/fields/${fieldId}/calculations/dose`, { start: '2025-01-01', end: '2025-12-31' })
    ).json()) as Record<string, any>;
    expect(dose.p_dose_n).toBe(94.5);
    expect(dose.applications).toEqual([
      expect.objectContaining({
        p_app_id: application.p_app_id,
        p_app_date: '2025-03-01',
        p_app_amount: 350,
        p_dose_n: 94.5,
        p_name_nl: expect.any(String),
      }),
    ]);
    const outside = (await (
      await call(t.app, user.key, 'POST', `/api/fields/${fieldId}/calculations/dose`, { start: '2024-01-01', end: '2024-12-31' })
    ).json()) as Record<string, any>;
    expect(outside.p_dose_n).toBe(0);
    expect(outside.applications).toEqual([]);
    // The room under the usage norms of 2025 counts the KAS (not animal manure); the field has no soil region.
    expect(dose.recommendation).toMatchObject({
      year: 2025,
      room: { nitrogen: null, manure: 170 },
      binding: null,
      norms: `/api/fields/${fieldId}/calculations/norms`,
    });
    expect(outside.recommendation).toBeNull();
    expect(outside.recommendationMessage).toBe('No usage norms are known for 2024: they are known for 2025 and 2026.');
  });
});
