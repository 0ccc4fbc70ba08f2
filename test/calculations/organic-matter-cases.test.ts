// Every case of test/fixtures/om-balance-cases.json, stored through the public API as a client would, and
// every figure of the organic-matter balance compared with the reference's output; then what the two
// endpoints answer around the figures: the timeframe, errors, access and their rate-limit category.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createField } from '../helpers/fixtures.js';
import { currentYear } from '../../src/calculations/dates.js';
import { CaseIds } from './case-ids.js';
import { escape, failedField, normalise, storeCaseRecords, type Json } from './case-records.js';

interface Case {
  id: string;
  records: Json;
  derived_by_reference_rules: Json;
  requests: Array<{ method: string; path: string; body: Json; expected: Json }>;
}

const cases = (JSON.parse(readFileSync(new URL('../fixtures/om-balance-cases.json', import.meta.url), 'utf8')) as { cases: Case[] }).cases;

const fieldPath = (b_id: string) => `/api/fields/${b_id}/calculations/organic-matter-balance`;
const farmPath = (b_id_farm: string) => `/api/farms/${b_id_farm}/calculations/organic-matter-balance`;

describe.each(storageKinds)('om-balance-cases.json on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  const idsOf = new Map(cases.map((c) => [c.id, new CaseIds()]));
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    for (const testCase of cases) await storeCaseRecords(t, user.key, testCase.records, idsOf.get(testCase.id)!);
  });
  afterAll(() => t.close());

  it('stores the amounts in kg/ha, and the end dates harvests set, as the reference derives them', async () => {
    for (const testCase of cases) {
      const ids = idsOf.get(testCase.id)!;
      for (const derived of testCase.derived_by_reference_rules.p_app_amount_kg_ha) {
        const response = await call(t.app, user.key, 'GET', `/api/fertilizer-applications/${ids.get(derived.p_app_id)}`);
        expect(((await response.json()) as Json).p_app_amount, derived.p_app_id).toBe(derived.p_app_amount);
      }
      for (const ended of testCase.derived_by_reference_rules.cultivation_end_set_by_harvest) {
        const response = await call(t.app, user.key, 'GET', `/api/cultivations/${ids.get(ended.b_lu)}`);
        expect(((await response.json()) as Json).b_lu_end, ended.b_lu).toBe(ended.b_lu_end);
      }
    }
  });

  for (const testCase of cases) {
    for (const request of testCase.requests) {
      it(`${testCase.id}: answers ${request.method} ${request.path} ${request.body.start}..${request.body.end} as the reference`, async () => {
        const ids = idsOf.get(testCase.id)!;
        const response = await call(t.app, user.key, request.method, ids.toOurs(request.path), request.body);
        expect(response.status).toBe(200);
        const { timeframe, ...actual } = (await response.json()) as Json;
        expect(timeframe).toEqual(request.body);
        const expected = JSON.parse(ids.toOurs(JSON.stringify(request.expected))) as Json;
        if ('fields' in expected) {
          const { fields, fieldErrorMessages, ...figures } = expected;
          expect({ ...actual, fields: undefined, fieldErrorMessages: undefined }).toEqual({
            ...figures,
            fields: undefined,
            fieldErrorMessages: undefined,
          });
          // Largest area first, as the reference lists them.
          expect(actual.fields.map((f: Json) => f.b_id)).toEqual(fields.map((f: Json) => f.b_id));
          for (const [i, field] of (fields as Json[]).entries()) {
            expect(normalise(actual.fields[i])).toEqual('errorMessage' in field ? failedField(field) : normalise(field));
          }
          expect(actual.fieldErrorMessages).toEqual(
            fieldErrorMessages.map((m: string) => expect.stringMatching(new RegExp(`^${escape(m)}\\. \\S`))),
          );
        } else if ('errorMessage' in expected) {
          expect(actual).toEqual(failedField(expected));
        } else {
          expect(normalise(actual)).toEqual(normalise(expected));
        }
      });
    }
  }

  describe('around the figures', () => {
    const s1 = () => idsOf.get(cases[0]!.id)!;

    it('says what to add when a field cannot be calculated: 200, balance null', async () => {
      const field = s1().get('F-S1a');
      const response = await call(t.app, user.key, 'POST', fieldPath(field), { start: '2030-01-01', end: '2030-12-31' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        b_id: field,
        balance: null,
        errorMessage: `Missing required soil parameters: a_som_loi, a_density_sa, b_soiltype_agr. Add a soil analysis with them, sampled within the timeframe or without a sampling date: POST /api/fields/${field}/soil-analyses.`,
      });
    });

    it('uses the current calendar year without a body, and counts against the calculation limit', async () => {
      for (const path of [fieldPath(s1().get('F-S1a')), farmPath(s1().get('farm-S1'))]) {
        const response = await call(t.app, user.key, 'POST', path);
        expect(response.status, path).toBe(200);
        expect(((await response.json()) as Json).timeframe).toEqual(currentYear());
        expect(response.headers.get('ratelimit-policy'), path).toMatch(/^"calculation";/);
      }
    });

    it('answers a farm without fields in the timeframe with zeros and "No fields in input"', async () => {
      const response = await call(t.app, user.key, 'POST', farmPath(s1().get('farm-S1')), { start: '2000-01-01', end: '2000-12-31' });
      expect(await response.json()).toEqual({
        balance: 0,
        supply: 0,
        degradation: 0,
        fields: [],
        hasErrors: true,
        fieldErrorMessages: ['No fields in input'],
        errorMessage: 'No fields in input',
        timeframe: { start: '2000-01-01', end: '2000-12-31' },
      });
    });

    it('refuses a malformed or impossible date (400) and an end before the start (422)', async () => {
      for (const path of [fieldPath(s1().get('F-S1a')), farmPath(s1().get('farm-S1'))]) {
        await expectProblem(await call(t.app, user.key, 'POST', path, { start: '2025-02-30' }), 400, 'validation-failed');
        await expectProblem(await call(t.app, user.key, 'POST', path, { start: '1 Jan 2025' }), 400, 'validation-failed');
        await expectProblem(await call(t.app, user.key, 'POST', path, { year: 2025 }), 400, 'validation-failed');
        await expectProblem(
          await call(t.app, user.key, 'POST', path, { start: '2025-06-01', end: '2025-05-31' }),
          422,
          'unprocessable-entity',
        );
      }
    });

    it('answers 404 for an unknown field or farm, and for those of another user', async () => {
      const stranger = await signUpWithKey(t.app);
      const theirs = await createFarm(t.app, stranger.key);
      const theirField = await createField(t.app, stranger.key, theirs.b_id_farm);
      for (const path of [fieldPath('no-such-field'), farmPath('no-such-farm'), fieldPath(theirField.b_id), farmPath(theirs.b_id_farm)]) {
        await expectProblem(await call(t.app, user.key, 'POST', path), 404, 'not-found');
      }
      for (const path of [fieldPath(s1().get('F-S1a')), farmPath(s1().get('farm-S1'))]) {
        await expectProblem(await call(t.app, stranger.key, 'POST', path), 404, 'not-found');
      }
    });
  });
});
