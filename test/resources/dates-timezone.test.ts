// Dates travel as YYYY-MM-DD whatever the server's time zone (docs/calculations.md: do all date logic in
// UTC). Node honours a change of process.env.TZ at run time, so each zone is set here in turn: the
// furthest ahead of UTC (+14) and one far behind (−10/−9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import {
  acquireFertilizer,
  createApplication,
  createCultivation,
  createField,
  createHarvest,
  createSoilAnalysis,
} from '../helpers/fixtures.js';

interface Page {
  data: Array<Record<string, unknown>>;
  pagination: { total: number };
}

const zones: Array<[string, number[]]> = [
  // zone, the possible values of Date#getTimezoneOffset() in it (minutes, UTC − local)
  ['Pacific/Kiritimati', [-840]],
  ['America/Adak', [600, 540]],
];

describe.each(storageKinds)('dates in other time zones on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  const originalTz = process.env.TZ;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
  });
  afterAll(async () => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
    await t.close();
  });

  const get = async <T>(path: string): Promise<T> => {
    const response = await call(t.app, user.key, 'GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const ids = async (path: string, key: string) => (await get<Page>(path)).data.map((item) => item[key]);

  describe.each(zones)('with TZ=%s', (zone, offsets) => {
    let fieldId: string;
    let cultivationId: string;
    let harvestId: string;
    let analysisId: string;
    let applicationId: string;

    beforeAll(async () => {
      process.env.TZ = zone;
      fieldId = (await createField(t.app, user.key, farmId, { b_start: '2025-01-01', b_end: '2025-12-31' })).b_id;
      cultivationId = (
        await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01', b_lu_end: '2025-12-31' })
      ).b_lu;
      harvestId = (await createHarvest(t.app, user.key, cultivationId, { b_lu_harvest_date: '2025-01-01', b_lu_yield: 1000, b_lu_cp: 150 }))
        .b_id_harvesting;
      analysisId = (
        await createSoilAnalysis(t.app, user.key, fieldId, { b_sampling_date: '2025-01-01', a_date: '2024-12-31', a_som_loi: 3 })
      ).a_id;
      const fertilizer = await acquireFertilizer(t.app, user.key, farmId, 'BAAT050');
      applicationId = (
        await createApplication(t.app, user.key, fieldId, { p_id: fertilizer.p_id, p_app_amount_display: 20, p_app_date: '2025-01-01' })
      ).p_app_id;
    });

    it('is really in that time zone', () => {
      expect(process.env.TZ).toBe(zone);
      expect(offsets).toContain(new Date('2025-01-01T00:00:00Z').getTimezoneOffset());
    });

    it('reads back the exact date strings that were sent', async () => {
      expect(await get(`/api/fields/${fieldId}`)).toMatchObject({ b_start: '2025-01-01', b_end: '2025-12-31' });
      expect(await get(`/api/cultivations/${cultivationId}`)).toMatchObject({ b_lu_start: '2025-01-01', b_lu_end: '2025-12-31' });
      expect(await get(`/api/harvests/${harvestId}`)).toMatchObject({ b_lu_harvest_date: '2025-01-01' });
      expect(await get(`/api/soil-analyses/${analysisId}`)).toMatchObject({ b_sampling_date: '2025-01-01', a_date: '2024-12-31' });
      expect(await get(`/api/fertilizer-applications/${applicationId}`)).toMatchObject({ p_app_date: '2025-01-01' });
      const fields = await get<Page>(`/api/farms/${farmId}/fields`);
      expect(fields.data.find((f) => f.b_id === fieldId)).toMatchObject({ b_start: '2025-01-01', b_end: '2025-12-31' });
    });

    it('filters lists on the boundary days', async () => {
      const day = '?start=2025-01-01&end=2025-01-01';
      const dayBefore = '?start=2024-12-31&end=2024-12-31';
      const lastDay = '?start=2025-12-31&end=2025-12-31';
      const dayAfter = '?start=2026-01-01&end=2026-01-01';

      expect(await ids(`/api/farms/${farmId}/fields${day}`, 'b_id')).toContain(fieldId);
      expect(await ids(`/api/farms/${farmId}/fields${lastDay}`, 'b_id')).toContain(fieldId);
      expect(await ids(`/api/farms/${farmId}/fields${dayBefore}`, 'b_id')).not.toContain(fieldId);
      expect(await ids(`/api/farms/${farmId}/fields${dayAfter}`, 'b_id')).not.toContain(fieldId);

      expect(await ids(`/api/fields/${fieldId}/cultivations${day}`, 'b_lu')).toEqual([cultivationId]);
      expect(await ids(`/api/fields/${fieldId}/cultivations${lastDay}`, 'b_lu')).toEqual([cultivationId]);
      expect(await ids(`/api/fields/${fieldId}/cultivations${dayBefore}`, 'b_lu')).toEqual([]);
      expect(await ids(`/api/fields/${fieldId}/cultivations${dayAfter}`, 'b_lu')).toEqual([]);

      expect(await ids(`/api/cultivations/${cultivationId}/harvests${day}`, 'b_id_harvesting')).toEqual([harvestId]);
      expect(await ids(`/api/cultivations/${cultivationId}/harvests${dayBefore}`, 'b_id_harvesting')).toEqual([]);
      expect(await ids(`/api/cultivations/${cultivationId}/harvests?start=2025-01-02`, 'b_id_harvesting')).toEqual([]);

      expect(await ids(`/api/fields/${fieldId}/soil-analyses${day}`, 'a_id')).toEqual([analysisId]);
      expect(await ids(`/api/fields/${fieldId}/soil-analyses${dayBefore}`, 'a_id')).toEqual([]);
      expect(await ids(`/api/fields/${fieldId}/soil-analyses?start=2025-01-02`, 'a_id')).toEqual([]);

      expect(await ids(`/api/fields/${fieldId}/fertilizer-applications${day}`, 'p_app_id')).toEqual([applicationId]);
      expect(await ids(`/api/fields/${fieldId}/fertilizer-applications?end=2024-12-31`, 'p_app_id')).toEqual([]);
      expect(await ids(`/api/fields/${fieldId}/fertilizer-applications?start=2025-01-02`, 'p_app_id')).toEqual([]);
    });

    it('checks date rules by calendar day: a harvest on the start day is allowed, the day before is not', async () => {
      const grass = await createCultivation(t.app, user.key, fieldId, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-03-30' });
      expect(
        (await call(t.app, user.key, 'POST', `/api/cultivations/${grass.b_lu}/harvests`, { b_lu_harvest_date: '2025-03-29' })).status,
      ).toBe(409);
      expect(
        (await call(t.app, user.key, 'POST', `/api/cultivations/${grass.b_lu}/harvests`, { b_lu_harvest_date: '2025-03-30' })).status,
      ).toBe(201);
    });
  });
});
