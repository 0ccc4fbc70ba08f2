// The dose recommendation in amounts of the farm's fertilizers over HTTP: for the norms cases and seeded random
// farms, an application of each answered amount is stored on the day, the norms' room read back, and the
// application removed; then the same with 0.1 unit more. The random farms' answers equal the in-process ones
// (product-room.test.ts covers the bulk of them). And the rules of application_date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productRoom } from '../../src/calculations/norms/product-room.js';
import { call, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { organicCertificationBody, rectangle } from '../helpers/fixtures.js';
import { CaseIds } from './case-ids.js';
import { normsCases, storeNormsCase } from './norms-store.js';
import { expectBindingExceeded, expectRoomsKept, nextTenth } from './product-room-property.js';
import { farmProducts, normsInputs, prng, randomNormsFarm, type RandomNormsFarm } from './random-norms-farm.js';

type Json = Record<string, any>;

describe.each(storageKinds)('the most of each farm fertilizer that fits, on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  async function send(method: string, path: string, body: Json | undefined, status: number): Promise<Json> {
    const response = await call(t.app, user.key, method, path, body);
    if (response.status !== status) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return status === 204 ? {} : ((await response.json()) as Json);
  }
  const post = (path: string, body: Json) => send('POST', path, body, 201);

  const recommendation = async (fieldId: string, year: number, application_date: string) =>
    (
      await send(
        'POST',
        `/api/fields/${fieldId}/calculations/dose`,
        { start: `${year}-01-01`, end: `${year}-12-31`, application_date },
        200,
      )
    ).recommendation as Json;

  /** The field's norms answer with an application of `display` of the fertilizer stored on the day, and its id. */
  async function normsWithStored(fieldId: string, year: number, date: string, p_id: string, display: number) {
    const stored = await post(`/api/fields/${fieldId}/fertilizer-applications`, { p_id, p_app_amount_display: display, p_app_date: date });
    const norms = await send('POST', `/api/fields/${fieldId}/calculations/norms`, { year }, 200);
    await send('DELETE', `/api/fertilizer-applications/${stored.p_app_id}`, undefined, 204);
    return { norms, p_app_id: stored.p_app_id as string };
  }

  /** The amount property of every answer that gives an amount, through stored applications; how many were checked. */
  async function checkStored(fieldId: string, year: number, date: string, answers: Json[]) {
    let checked = 0;
    for (const answer of answers) {
      if (answer.status !== 'limited' && answer.status !== 'exhausted') continue;
      // Nothing to store for 0: the rooms stay as they are.
      if (answer.max_amount_display > 0) {
        const atMax = await normsWithStored(fieldId, year, date, answer.p_id, answer.max_amount_display);
        expectRoomsKept(answer as any, atMax.norms as any, atMax.p_app_id);
      }
      const beyond = await normsWithStored(fieldId, year, date, answer.p_id, nextTenth(answer.max_amount_display));
      expectBindingExceeded(answer as any, beyond.norms.room);
      checked++;
    }
    return checked;
  }

  it('holds for every fertilizer on the first and the last field of each norms case, in spring and in autumn', async () => {
    let checked = 0;
    const statuses = new Set<string>();
    for (const testCase of normsCases) {
      const ids = new CaseIds();
      await storeNormsCase(t, user.key, testCase.records, ids);
      const fertilizers = (testCase.records.fertilizers as Json[]).map((f) => ids.get(f.p_id));
      const listed = (testCase.expected.fields as Json[]).filter((f) => f.listed_for_year);
      const fields = [listed[0]!, listed.at(-1)!];
      for (const [i, expected] of fields.entries()) {
        const date = `${testCase.year}-${i % 2 === 0 ? '03-15' : '10-15'}`;
        const fieldId = ids.get(expected.b_id);
        const answer = await recommendation(fieldId, testCase.year, date);
        expect(answer.application_date).toBe(date);
        expect(answer.fertilizers.map((f: Json) => f.p_id)).toEqual(fertilizers);
        for (const f of answer.fertilizers) statuses.add(f.status);
        checked += await checkStored(fieldId, testCase.year, date, answer.fertilizers);
      }
    }
    expect([...statuses].sort()).toEqual(['exhausted', 'limited', 'undetermined']);
    expect(checked).toBeGreaterThan(20);
  });

  async function storeRandomFarm(random: RandomNormsFarm) {
    const farmId = (await post('/api/farms', { b_name_farm: 'Willekeurig' })).b_id_farm as string;
    if (random.derogation) await send('PUT', `/api/farms/${farmId}/derogations/${random.year}`, undefined, 201);
    await send('PUT', `/api/farms/${farmId}/grazing-intentions/${random.year}`, { b_grazing_intention: random.grazing }, 201);
    if (random.organicCertified) {
      const { farm } = normsInputs(random);
      await post(`/api/farms/${farmId}/organic-certifications`, { ...organicCertificationBody, ...farm.organicCertifications[0] });
    }
    const fieldId = (await post(`/api/farms/${farmId}/fields`, { b_name: 'Perceel', b_geometry: rectangle(), ...random.field }))
      .b_id as string;
    const productIds: string[] = [];
    for (const p_id_catalogue of random.products)
      productIds.push((await post(`/api/farms/${farmId}/fertilizers`, { p_id_catalogue })).p_id);
    for (const cultivation of random.cultivations) await post(`/api/fields/${fieldId}/cultivations`, cultivation);
    for (const analysis of random.soilAnalyses) await post(`/api/fields/${fieldId}/soil-analyses`, { a_source: 'other', ...analysis });
    for (const { product, ...application } of random.applications) {
      await post(`/api/fields/${fieldId}/fertilizer-applications`, { p_id: productIds[product], ...application });
    }
    return { fieldId, productIds };
  }

  it('holds on 5 seeded random farms stored through the API, whose answers equal the in-process ones', async () => {
    const r = prng(8);
    let checked = 0;
    for (let n = 0; n < 5; n++) {
      const random = randomNormsFarm(r);
      const { fieldId, productIds } = await storeRandomFarm(random);
      const answer = await recommendation(fieldId, random.year, random.applicationDate);
      const { field, farm } = normsInputs(random);
      const inProcess = farmProducts(random, productIds).map((p) => productRoom(field, farm, random.year, random.applicationDate, p));
      expect(answer.fertilizers).toEqual(inProcess);
      checked += await checkStored(fieldId, random.year, random.applicationDate, answer.fertilizers);
    }
    expect(checked).toBeGreaterThan(8);
  });

  describe('application_date', () => {
    let fieldId: string;
    beforeAll(async () => {
      const farmId = (await post('/api/farms', { b_name_farm: 'Datum' })).b_id_farm as string;
      fieldId = (
        await post(`/api/farms/${farmId}/fields`, {
          b_name: 'Perceel',
          b_start: '2020-01-01',
          b_soil_region: 'zand_zuid',
          b_geometry: rectangle(),
        })
      ).b_id as string;
      await post(`/api/farms/${farmId}/fertilizers`, { p_id_catalogue: 'BAAT050' });
      await post(`/api/fields/${fieldId}/cultivations`, { b_lu_catalogue: 'nl_259', b_lu_start: '2025-04-20', b_lu_end: '2025-10-01' });
    });
    const dose = (body: Json) => call(t.app, user.key, 'POST', `/api/fields/${fieldId}/calculations/dose`, body);

    it('must lie in the year of the recommendation: another day is 422 saying which days may be sent', async () => {
      const problem = await expectProblem(
        await dose({ start: '2025-01-01', end: '2025-12-31', application_date: '2026-02-01' }),
        422,
        'unprocessable-entity',
      );
      expect(problem.detail).toBe(
        'application_date 2026-02-01 is not in 2025, the year of the recommendation (the calendar year of the timeframe): send a day from 2025-01-01 to 2025-12-31.',
      );
      await expectProblem(await dose({ application_date: '2025-02-30' }), 400, 'validation-failed');
      const balance = await call(t.app, user.key, 'POST', `/api/fields/${fieldId}/calculations/nitrogen-balance`, {
        application_date: '2025-03-01',
      });
      await expectProblem(balance, 400, 'validation-failed');
    });

    it('defaults to today, kept within the year', async () => {
      const today = new Date().toISOString().slice(0, 10);
      for (const year of [2025, 2026]) {
        const response = await dose({ start: `${year}-01-01`, end: `${year}-12-31` });
        const answer = ((await response.json()) as Json).recommendation;
        const expected = today < `${year}-01-01` ? `${year}-01-01` : today > `${year}-12-31` ? `${year}-12-31` : today;
        expect(answer.application_date).toBe(expected);
      }
    });

    it('gives no amount where a norm the fertilizer fills has no value, and says which and why', async () => {
      const answer = (await (await dose({ start: '2025-01-01', end: '2025-12-31', application_date: '2025-03-01' })).json()) as Json;
      expect(answer.recommendation.fertilizers).toEqual([
        expect.objectContaining({
          p_name_nl: 'Rundveedrijfmest',
          status: 'undetermined',
          undetermined_norm: 'phosphate',
          max_amount: null,
        }),
      ]);
      expect(answer.recommendation.fertilizers[0].message).toContain('Missing soil analysis data for NL 2025 Fosfaatgebruiksnorm');
    });

    it('is not looked at when there is no recommendation', async () => {
      const answer = (await (await dose({ start: '2025-06-01', end: '2026-05-31', application_date: '2024-01-01' })).json()) as Json;
      expect(answer.recommendation).toBeNull();
    });
  });
});
