// Every case of test/fixtures/norms-cases.json stored through the public API as a client would, and the field
// and farm norms answered figure for figure as the reference; the year rule, a field without a soil region and
// the dose's recommendation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { created, rectangle } from '../helpers/fixtures.js';
import { CaseIds } from './case-ids.js';
import { compareFarm, compareField, expectFigure } from './norms-compare.js';
import { normsCases as cases, storeNormsCase as store } from './norms-store.js';

type Json = Record<string, any>;

describe.each(storageKinds)('norms on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());
  const norms = (path: string, body?: Json) => call(t.app, user.key, 'POST', path, body);

  for (const testCase of cases) {
    describe(testCase.id, () => {
      const ids = new CaseIds();
      beforeAll(() => store(t, user.key, testCase.records, ids));

      it('answers every field as the reference', async () => {
        for (const expected of testCase.expected.fields as Json[]) {
          const response = await norms(`/api/fields/${ids.get(expected.b_id)}/calculations/norms`, { year: testCase.year });
          expect(response.status).toBe(200);
          const { year, ...answer } = ids.toLocal(await response.json()) as Json;
          expect(year).toBe(testCase.year);
          compareField(answer, expected);
        }
      });

      it('answers the farm as the reference', async () => {
        const response = await norms(`/api/farms/${ids.get(testCase.records.farm.b_id_farm)}/calculations/norms`, { year: testCase.year });
        expect(response.status).toBe(200);
        const farm = ids.toLocal(await response.json()) as Json;
        expect(farm.year).toBe(testCase.year);
        compareFarm(farm, testCase.expected);
        const listed = (testCase.expected.fields as Json[]).filter((f) => f.listed_for_year);
        expect(farm.fields.map((f: Json) => f.b_id).sort()).toEqual(listed.map((f) => f.b_id).sort());
        for (const expected of listed)
          compareField(
            farm.fields.find((f: Json) => f.b_id === expected.b_id),
            expected,
          );
      });

      it('gives the dose of a timeframe in the year the room of the field norms as its recommendation', async () => {
        const expected = (testCase.expected.fields as Json[]).find((f) => f.listed_for_year)!;
        const body = { start: `${testCase.year}-03-01`, end: `${testCase.year}-09-30` };
        const response = await norms(`/api/fields/${ids.get(expected.b_id)}/calculations/dose`, body);
        expect(response.status).toBe(200);
        const dose = ids.toLocal(await response.json()) as Json;
        expect(dose.timeframe).toEqual(body);
        expect(dose.recommendation).toMatchObject({
          year: testCase.year,
          norms: `/api/fields/${ids.get(expected.b_id)}/calculations/norms`,
          message: expect.stringContaining(`Room left in ${testCase.year}`),
        });
        for (const [name, room] of Object.entries<number | null>(expected.room)) {
          if (room === null) expect(dose.recommendation.room[name]).toBeNull();
          else expectFigure(dose.recommendation.room[name], room, name);
        }
        const rooms = (['nitrogen', 'manure', 'phosphate'] as const).map((name) => ({ name, room: expected.room[name] as number | null }));
        const binding = rooms.some((r) => r.room === null) ? null : rooms.reduce((a, b) => (b.room! < a.room! ? b : a)).name;
        expect(dose.recommendation.binding).toBe(binding);
      });
    });
  }

  describe('the year', () => {
    let farmId: string;
    let fieldId: string;
    beforeAll(async () => {
      farmId = (await created<{ b_id_farm: string }>(call(t.app, user.key, 'POST', '/api/farms', { b_name_farm: 'Jaren' }))).b_id_farm;
      const field = await created<{ b_id: string }>(
        call(t.app, user.key, 'POST', `/api/farms/${farmId}/fields`, {
          b_name: 'Zonder grondsoort',
          b_start: '2020-01-01',
          b_geometry: rectangle(),
        }),
      );
      fieldId = field.b_id;
      await created(
        call(t.app, user.key, 'POST', `/api/fields/${fieldId}/cultivations`, { b_lu_catalogue: 'nl_233', b_lu_start: '2024-10-20' }),
      );
    });

    it('is 2025 or 2026; another year is 422 naming the known years', async () => {
      for (const path of [`/api/fields/${fieldId}/calculations/norms`, `/api/farms/${farmId}/calculations/norms`]) {
        for (const year of [2024, 2027]) {
          const problem = await expectProblem(await norms(path, { year }), 422, 'unprocessable-entity');
          expect(problem.errors).toEqual([{ field: 'year', message: 'must be a year whose norms are known: 2025, 2026' }]);
        }
        await expectProblem(await norms(path, { year: '2025' }), 400, 'validation-failed');
        await expectProblem(await norms(path, { year: 2025, start: '2025-01-01' }), 400, 'validation-failed');
      }
    });

    it('defaults to the current year (2026 on this machine’s clock, or 422 in a year without norms)', async () => {
      const response = await norms(`/api/fields/${fieldId}/calculations/norms`);
      const current = new Date().getUTCFullYear();
      if (current === 2025 || current === 2026) {
        expect(response.status).toBe(200);
        expect(((await response.json()) as Json).year).toBe(current);
      } else {
        const problem = await expectProblem(response, 422, 'unprocessable-entity');
        expect(problem.detail).toContain('2025 or 2026');
      }
    });

    it('leaves a field without a soil region without nitrogen norm and filling, saying what to add, and out of the farm totals', async () => {
      const field = (await (await norms(`/api/fields/${fieldId}/calculations/norms`, { year: 2025 })).json()) as Json;
      const missing = { error: 'not-determinable', message: expect.stringContaining('set b_soil_region on the field') };
      expect(field.norms.nitrogen).toEqual(missing);
      expect(field.filling.nitrogen).toEqual(missing);
      expect(field.room.nitrogen).toBeNull();
      expect(field.norms.manure).toEqual({ normValue: 170, normSource: 'Standaard - geen derogatie' });
      const farm = (await (await norms(`/api/farms/${farmId}/calculations/norms`, { year: 2025 })).json()) as Json;
      expect(farm.fieldsInTotals).toEqual([]);
      expect(farm.fieldsLeftOut).toEqual([{ b_id: fieldId, ...missing }]);
      expect(farm.norms).toEqual({ nitrogen: 0, manure: 0, phosphate: 0 });
    });

    it('gives the dose no recommendation outside 2025–2026 or across years, and says why', async () => {
      for (const [body, why] of [
        [{ start: '2024-01-01', end: '2024-12-31' }, 'No usage norms are known for 2024'],
        [{ start: '2025-06-01', end: '2026-05-31' }, 'spans more than one'],
      ] as const) {
        const dose = (await (await norms(`/api/fields/${fieldId}/calculations/dose`, body)).json()) as Json;
        expect(dose.recommendation).toBeNull();
        expect(dose.recommendationMessage).toContain(why);
      }
      const dose = (await (
        await norms(`/api/fields/${fieldId}/calculations/dose`, { start: '2026-01-01', end: '2026-12-31' })
      ).json()) as Json;
      expect(dose.recommendation).toMatchObject({ year: 2026, binding: null, room: { nitrogen: null, manure: 170, renure: 80 } });
      expect(dose.recommendation.message).toContain('nitrogen');
    });

    it('answers 404 for a field or farm that does not exist', async () => {
      await expectProblem(await norms('/api/fields/AAAAAAAAAAAAAAAAAAAAAA/calculations/norms', { year: 2025 }), 404, 'not-found');
      await expectProblem(await norms('/api/farms/AAAAAAAAAAAAAAAAAAAAAA/calculations/norms', { year: 2025 }), 404, 'not-found');
    });
  });
});
