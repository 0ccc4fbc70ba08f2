// A portfolio page reads each input once for all the farms of a run (RUN_FIELDS fields): the statements it sends
// to the database are as many for a page of one farm as for a page of six small ones, and grow by the same
// number with each run, not with each farm (counted through the database handle's statement listener).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_FIELDS } from '../../src/calculations/portfolio/page.js';
import { appOn, call, createFarm, signUpWithKey, type Account, type TestApp } from '../helpers/app.js';
import { farmOfFields } from '../helpers/bulk-fields.js';
import { openTestDatabase, storageKinds } from '../helpers/databases.js';
import { acquireFertilizer, createApplication, createField, makeCalculable } from '../helpers/fixtures.js';
import { createOrganisation, shareWithOrganisation } from '../helpers/organisations.js';

const CALCULATIONS = [
  { path: 'nitrogen-balance', body: { start: '2025-01-01', end: '2025-12-31' } },
  { path: 'organic-matter-balance', body: { start: '2025-01-01', end: '2025-12-31' } },
  { path: 'norms', body: { year: 2025 } },
] as const;

describe.each(storageKinds)('statements of a portfolio page on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let small: string;
  let large: string;
  const largeFarms: string[] = [];
  /** Organisations of two and of three farms of 0.6 × RUN_FIELDS fields each: two runs, three runs. */
  let twoRuns: string;
  let threeRuns: string;
  let sent: string[] | undefined;

  beforeAll(async () => {
    t = appOn(await openTestDatabase(kind, (text) => sent?.push(text)));
    user = await signUpWithKey(t.app);
    small = await createOrganisation(t, user, 'Eén bedrijf');
    large = await createOrganisation(t, user, 'Zes bedrijven');
    for (let i = 0; i < 6; i++) {
      const farm = (await createFarm(t.app, user.key, { b_name_farm: `Bedrijf ${i}` })).b_id_farm;
      const fertilizer = (await acquireFertilizer(t.app, user.key, farm)).p_id;
      for (let f = 0; f <= i % 3; f++) {
        const field = (await createField(t.app, user.key, farm, { b_soil_region: 'klei' })).b_id;
        await makeCalculable(t.app, user.key, field);
        await createApplication(t.app, user.key, field, { p_id: fertilizer, p_app_amount_display: 20 });
      }
      if (i === 0) await shareWithOrganisation(t, user, farm, small, 'advisor');
      await shareWithOrganisation(t, user, farm, large, 'advisor');
      largeFarms.push(farm);
    }
    twoRuns = await createOrganisation(t, user, 'Twee ronden');
    threeRuns = await createOrganisation(t, user, 'Drie ronden');
    for (let i = 0; i < 3; i++) {
      const farm = await farmOfFields(t, user.key, `Groot bedrijf ${i}`, Math.ceil(RUN_FIELDS * 0.6));
      if (i < 2) await shareWithOrganisation(t, user, farm, twoRuns, 'advisor');
      await shareWithOrganisation(t, user, farm, threeRuns, 'advisor');
    }
  });
  afterAll(() => t?.close());

  /** The statements sent while `path` answered 200, and the answer. */
  async function statementsOf(path: string, body: unknown): Promise<{ statements: string[]; answer: { data?: unknown[] } }> {
    sent = [];
    try {
      const response = await call(t.app, user.key, 'POST', path, body);
      expect(response.status).toBe(200);
      return { statements: sent, answer: (await response.json()) as { data?: unknown[] } };
    } finally {
      sent = undefined;
    }
  }

  for (const { path, body } of CALCULATIONS) {
    it(`sends as many statements for one ${path} page of six farms as for one of one, fewer than the six farm requests`, async () => {
      const page = async (org: string, farms: number, query = '') => {
        const { statements, answer } = await statementsOf(`/api/organisations/${org}/calculations/${path}${query}`, body);
        expect(answer.data).toHaveLength(farms);
        return statements;
      };
      // Once each first, so that what a first request looks up and remembers (the key) is not counted.
      await page(small, 1);
      await page(large, 6);
      const one = await page(small, 1);
      const six = await page(large, 6);
      const three = await page(large, 3, '?limit=3&offset=2');
      expect(six).toHaveLength(one.length);
      expect(three).toHaveLength(one.length);
      let farmByFarm = 0;
      for (const farm of largeFarms) farmByFarm += (await statementsOf(`/api/farms/${farm}/calculations/${path}`, body)).statements.length;
      expect(farmByFarm).toBeGreaterThan(six.length * 3);
    });

    it(`sends for a ${path} page the same statements more with each run of at most ${RUN_FIELDS} fields`, async () => {
      const page = async (org: string, farms: number) => {
        const { statements, answer } = await statementsOf(`/api/organisations/${org}/calculations/${path}`, body);
        expect(answer.data).toHaveLength(farms);
        return statements.length;
      };
      await page(twoRuns, 2);
      await page(threeRuns, 3);
      const one = await page(small, 1);
      const two = await page(twoRuns, 2);
      const three = await page(threeRuns, 3);
      expect(two).toBeGreaterThan(one);
      expect(three - two).toBe(two - one);
    });
  }
});
