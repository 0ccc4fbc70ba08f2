// Every case of test/fixtures/calc-cases.json, stored through the public API as a client would, and every
// number of every calculation compared with the reference's output.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { CaseIds } from './case-ids.js';
import { escape, failedField, normalise, storeCaseRecords, type Json } from './case-records.js';

interface Case {
  id: string;
  timeframe: { start: string; end: string };
  records: Json;
  derived_by_reference_rules: Json;
  requests: Array<{ path: string; body: Json; expected: Json; variant_if_timeframe_applied?: { body: Json; expected: Json } }>;
}

const cases = (JSON.parse(readFileSync(new URL('../fixtures/calc-cases.json', import.meta.url), 'utf8')) as { cases: Case[] }).cases;

describe.each(storageKinds)('calc-cases.json on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  for (const testCase of cases) {
    describe(testCase.id, () => {
      const ids = new CaseIds();
      beforeAll(() => storeCaseRecords(t, user.key, testCase.records, ids));

      it('stores harvests and amounts as the reference derives them', async () => {
        for (const derived of testCase.derived_by_reference_rules.harvest_analysis) {
          const harvest = (await (await call(t.app, user.key, 'GET', `/api/harvests/${ids.get(derived.b_id_harvesting)}`)).json()) as Json;
          expect(harvest).toMatchObject({ b_lu_yield: derived.b_lu_yield, b_lu_n_harvestable: derived.b_lu_n_harvestable });
        }
        for (const derived of testCase.derived_by_reference_rules.p_app_amount_kg_ha) {
          const application = (await (
            await call(t.app, user.key, 'GET', `/api/fertilizer-applications/${ids.get(derived.p_app_id)}`)
          ).json()) as Json;
          expect(application.p_app_amount).toBe(derived.p_app_amount);
        }
        for (const ended of testCase.derived_by_reference_rules.cultivation_end_set_by_harvest) {
          const cultivation = (await (await call(t.app, user.key, 'GET', `/api/cultivations/${ids.get(ended.b_lu)}`)).json()) as Json;
          expect(cultivation.b_lu_end).toBe(ended.b_lu_end);
        }
      });

      for (const request of testCase.requests) {
        it(`answers POST ${request.path} as the reference`, async () => {
          const path = ids.toOurs(request.path);
          if (path.endsWith('/dose')) {
            // Akker's dose counts only the applications in the timeframe, so the reference's figures for it are the variant's.
            // The reference's own figures (every application, whatever its date) come back with a timeframe
            // that holds every application of the case (2024 and 2025), within the ten years a calculation takes.
            const variant = request.variant_if_timeframe_applied!;
            for (const [body, expected] of [
              [variant.body, variant.expected],
              [{ start: '2020-01-01', end: '2029-12-31' }, request.expected],
            ] as const) {
              const response = await call(t.app, user.key, 'POST', path, body);
              expect(response.status).toBe(200);
              const dose = (await response.json()) as Json;
              expect(dose.timeframe).toEqual(body);
              for (const [name, value] of Object.entries(expected as Record<string, number>)) {
                expect(Math.abs(dose[name] - value), name).toBeLessThanOrEqual(Math.abs(value) * 1e-9);
              }
            }
            return;
          }
          const response = await call(t.app, user.key, 'POST', path, request.body);
          expect(response.status).toBe(200);
          // The answer says which timeframe it used; the reference's output does not.
          const { timeframe, ...actual } = (await response.json()) as Json;
          expect(timeframe).toEqual(request.body);
          const expected = JSON.parse(ids.toOurs(JSON.stringify(request.expected))) as Json;
          if ('reference_error_message' in expected) {
            // The reference answers 500 here; Akker answers the field with its message (docs/calculations.md).
            const field = (await (await call(t.app, user.key, 'GET', path.replace(/\/calculations\/.*$/, ''))).json()) as Json;
            expect(actual).toEqual(
              failedField({
                b_id: field.b_id,
                b_area: field.b_area,
                b_bufferstrip: field.b_bufferstrip,
                errorMessage: expected.reference_error_message,
              }),
            );
          } else if ('fields' in expected) {
            expect(normalise({ ...actual, fields: undefined, fieldErrorMessages: undefined })).toEqual(
              normalise({ ...expected, fields: undefined, fieldErrorMessages: undefined }),
            );
            expect(actual.fields.map((f: Json) => f.b_id).sort()).toEqual(expected.fields.map((f: Json) => f.b_id).sort());
            for (const field of expected.fields as Json[]) {
              const mine = actual.fields.find((f: Json) => f.b_id === field.b_id);
              expect(normalise(mine)).toEqual('errorMessage' in field ? failedField(field) : normalise(field));
            }
            expect(actual.fieldErrorMessages).toEqual(
              expected.fieldErrorMessages.map((m: string) => expect.stringMatching(new RegExp(`^${escape(m)}\\. \\S`))),
            );
          } else {
            expect(normalise(actual)).toEqual(normalise(expected));
          }
        });
      }
    });
  }
});
