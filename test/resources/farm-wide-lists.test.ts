// The farm-wide lists: every cultivation and every soil analysis of a farm's fields in one paged list,
// with the date rules, order and envelope of the field lists, and nothing of another farm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createCultivation, createField, createSoilAnalysis } from '../helpers/fixtures.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}
type Item = Record<string, unknown> & { b_id: string };

describe.each(storageKinds)('farm-wide lists on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let otherFarmId: string;
  const cultivationIds: string[] = [];
  const analysisIds: string[] = [];
  const fieldOf = new Map<string, string>();

  const page = async (path: string) => {
    const response = await call(t.app, user.key, 'GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as Page<Item>;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    otherFarmId = (await createFarm(t.app, user.key, { b_name_farm: 'Buurman' })).b_id_farm;
    // Records created field after field, interleaved: the farm list is in creation order across fields.
    const fields = [(await createField(t.app, user.key, farmId)).b_id, (await createField(t.app, user.key, farmId)).b_id];
    for (let round = 0; round < 3; round++) {
      for (const fieldId of fields) {
        const year = 2023 + round;
        const cultivation = await createCultivation(t.app, user.key, fieldId, {
          b_lu_catalogue: 'nl_265',
          b_lu_start: `${year}-03-01`,
          b_lu_end: `${year}-10-01`,
        });
        cultivationIds.push(cultivation.b_lu);
        fieldOf.set(cultivation.b_lu, fieldId);
        const analysis = await createSoilAnalysis(t.app, user.key, fieldId, { b_sampling_date: `${year}-02-01`, a_som_loi: 3 });
        analysisIds.push(analysis.a_id as string);
        fieldOf.set(analysis.a_id as string, fieldId);
      }
    }
    // The other farm's records must never appear.
    const stranger = (await createField(t.app, user.key, otherFarmId)).b_id;
    await createCultivation(t.app, user.key, stranger);
    await createSoilAnalysis(t.app, user.key, stranger, { b_sampling_date: '2024-02-01', a_som_loi: 2 });
  });
  afterAll(() => t?.close());

  it("lists every cultivation of the farm's fields, in creation order, each with its field's b_id, as the field list shows it", async () => {
    const all = await page(`/api/farms/${farmId}/cultivations?limit=200`);
    expect(all.pagination).toEqual({ limit: 200, offset: 0, total: 6 });
    expect(all.data.map((c) => c.b_lu)).toEqual(cultivationIds);
    for (const item of all.data) expect(item.b_id).toBe(fieldOf.get(item.b_lu as string));
    const one = await page(`/api/fields/${all.data[0]!.b_id}/cultivations`);
    expect(all.data.filter((c) => c.b_id === all.data[0]!.b_id)).toEqual(one.data);
  });

  it("lists every soil analysis of the farm's fields, in creation order, each with its field's b_id, as the field list shows it", async () => {
    const all = await page(`/api/farms/${farmId}/soil-analyses`);
    expect(all.pagination).toEqual({ limit: 50, offset: 0, total: 6 });
    expect(all.data.map((a) => a.a_id)).toEqual(analysisIds);
    for (const item of all.data) expect(item.b_id).toBe(fieldOf.get(item.a_id as string));
    const one = await page(`/api/fields/${all.data[1]!.b_id}/soil-analyses`);
    expect(all.data.filter((a) => a.b_id === all.data[1]!.b_id)).toEqual(one.data);
  });

  it('pages with limit and offset, the pages together the whole list once', async () => {
    for (const [resource, ids] of [
      ['cultivations', cultivationIds],
      ['soil-analyses', analysisIds],
    ] as const) {
      const seen: string[] = [];
      for (let offset = 0; offset < 6; offset += 4) {
        const body = await page(`/api/farms/${farmId}/${resource}?limit=4&offset=${offset}`);
        expect(body.pagination).toEqual({ limit: 4, offset, total: 6 });
        seen.push(...body.data.map((item) => (item.b_lu ?? item.a_id) as string));
      }
      expect(seen).toEqual(ids);
    }
  });

  it('filters by start and end as the field lists: a period overlapping the window, a sampling date within it', async () => {
    const cultivations = await page(`/api/farms/${farmId}/cultivations?start=2024-06-01&end=2024-06-30`);
    expect(cultivations.data.map((c) => c.b_lu)).toEqual(cultivationIds.slice(2, 4));
    expect(cultivations.pagination.total).toBe(2);
    const fromSeason = await page(`/api/farms/${farmId}/cultivations?start=2025-09-30`);
    expect(fromSeason.data.map((c) => c.b_lu)).toEqual(cultivationIds.slice(4));
    const analyses = await page(`/api/farms/${farmId}/soil-analyses?end=2024-02-01`);
    expect(analyses.data.map((a) => a.a_id)).toEqual(analysisIds.slice(0, 4));
    const none = await page(`/api/farms/${farmId}/soil-analyses?start=2024-02-02&end=2025-01-31`);
    expect(none).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it('answers an empty farm with an empty page', async () => {
    const empty = (await createFarm(t.app, user.key, { b_name_farm: 'Leeg' })).b_id_farm;
    for (const resource of ['cultivations', 'soil-analyses'])
      expect(await page(`/api/farms/${empty}/${resource}`)).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it('refuses a bad window or page with 400 or 422, as the field lists do', async () => {
    for (const resource of ['cultivations', 'soil-analyses']) {
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/farms/${farmId}/${resource}?start=2025-02-30`),
        400,
        'validation-failed',
      );
      await expectProblem(await call(t.app, user.key, 'GET', `/api/farms/${farmId}/${resource}?limit=201`), 400, 'validation-failed');
      await expectProblem(await call(t.app, user.key, 'GET', `/api/farms/${farmId}/${resource}?offset=-1`), 400, 'validation-failed');
      await expectProblem(
        await call(t.app, user.key, 'GET', `/api/farms/${farmId}/${resource}?start=2025-02-01&end=2025-01-01`),
        422,
        'unprocessable-entity',
      );
    }
  });

  it("answers 404 for another user's farm and for a farm that does not exist, listing nothing", async () => {
    const stranger = await signUpWithKey(t.app);
    for (const resource of ['cultivations', 'soil-analyses']) {
      await expectProblem(await call(t.app, stranger.key, 'GET', `/api/farms/${farmId}/${resource}`), 404, 'not-found');
      await expectProblem(await call(t.app, user.key, 'GET', `/api/farms/no-such-farm/${resource}`), 404, 'not-found');
    }
  });
});
