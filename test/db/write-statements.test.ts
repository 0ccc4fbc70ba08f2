// How many statements each write and each list read of the load test's mix sends to the database, BEGIN
// and COMMIT included: pinned, so that a feature which adds one to every request is seen
// (docs/performance.md, "Where the mix's time went"). Counted through the database handle's statement
// listener, on each storage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOn, call, createFarm, signUpWithKey, type Account, type TestApp } from '../helpers/app.js';
import { openTestDatabase, storageKinds } from '../helpers/databases.js';
import {
  acquireFertilizer,
  createApplication,
  createCultivation,
  createField,
  createHarvest,
  createSoilAnalysis,
  rectangle,
} from '../helpers/fixtures.js';

/**
 * The statements of each write, the same on both databases: BEGIN, the farm held (the remembered key's
 * check folded in), access asked under the lock, the write (a field's delete: its cascade, five
 * statements), the audit entry, COMMIT.
 */
const EXPECTED = {
  'create field': 6,
  'add soil analysis': 6,
  'update farm': 6,
  'add cultivation': 6,
  'delete field': 10,
};

/**
 * The statements of each list read: one, the page with its total and the caller's access (its key's
 * check folded in); an empty page asks for its total and the access again in a second.
 */
const EXPECTED_READS = {
  'field list': 1,
  'cultivation list': 1,
  'harvest list': 1,
  'soil analysis list': 1,
  'application list': 1,
  'empty harvest list': 2,
};

describe.each(storageKinds)('statements per write on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let fieldId: string;
  let cultivationId: string;
  let bareCultivationId: string;
  let sent: string[] | undefined;

  beforeAll(async () => {
    t = appOn(await openTestDatabase(kind, (text) => sent?.push(text)));
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    fieldId = (await createField(t.app, user.key, farmId)).b_id;
    cultivationId = (await createCultivation(t.app, user.key, fieldId)).b_lu;
    bareCultivationId = (await createCultivation(t.app, user.key, fieldId)).b_lu;
    await createHarvest(t.app, user.key, cultivationId, { b_lu_harvest_date: '2025-06-01', b_lu_yield: 3000, b_lu_cp: 170 });
    await createSoilAnalysis(t.app, user.key, fieldId);
    const fertilizer = (await acquireFertilizer(t.app, user.key, farmId)).p_id;
    await createApplication(t.app, user.key, fieldId, {
      p_id: fertilizer,
      p_app_amount_display: 100,
      p_app_method: 'injection',
      p_app_date: '2025-03-01',
    });
  });
  afterAll(() => t.close());

  /** The statements sent while the request `prepare` makes ready was answered with `status`. */
  async function statementsOf(status: number, prepare: () => Promise<() => Promise<Response>>): Promise<string[]> {
    const request = await prepare();
    sent = [];
    try {
      const response = await request();
      expect(response.status, await response.clone().text()).toBe(status);
      await response.arrayBuffer();
      return sent;
    } finally {
      sent = undefined;
    }
  }

  /** Each write: its name, its status, and what makes its request ready (a field to delete first). */
  const ready = (request: () => Promise<Response>) => () => Promise.resolve(request);
  const writes: Array<[keyof typeof EXPECTED, number, () => Promise<() => Promise<Response>>]> = [
    [
      'create field',
      201,
      ready(() =>
        call(t.app, user.key, 'POST', `/api/farms/${farmId}/fields`, { b_name: 'Akker', b_geometry: rectangle(), b_start: '2024-01-01' }),
      ),
    ],
    [
      'add soil analysis',
      201,
      ready(() => call(t.app, user.key, 'POST', `/api/fields/${fieldId}/soil-analyses`, { a_som_loi: 3.5, b_sampling_date: '2025-02-01' })),
    ],
    ['update farm', 200, ready(() => call(t.app, user.key, 'PATCH', `/api/farms/${farmId}`, { b_address_farm: 'Dorpsstraat 1' }))],
    [
      'add cultivation',
      201,
      ready(() =>
        call(t.app, user.key, 'POST', `/api/fields/${fieldId}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-04-01' }),
      ),
    ],
    [
      'delete field',
      204,
      async () => {
        const field = await createField(t.app, user.key, farmId);
        return () => call(t.app, user.key, 'DELETE', `/api/fields/${field.b_id}`);
      },
    ],
  ];

  it.each(writes)('%s', async (name, status, prepare) => {
    // The second of each: the key is remembered by then, as it is for every request of a busy client.
    await statementsOf(status, prepare);
    const statements = await statementsOf(status, prepare);
    expect({ count: statements.length, statements }).toEqual({ count: EXPECTED[name], statements });
  });

  const reads: Array<[keyof typeof EXPECTED_READS, () => string]> = [
    ['field list', () => `/api/farms/${farmId}/fields?limit=20`],
    ['cultivation list', () => `/api/fields/${fieldId}/cultivations`],
    ['harvest list', () => `/api/cultivations/${cultivationId}/harvests`],
    ['soil analysis list', () => `/api/fields/${fieldId}/soil-analyses`],
    ['application list', () => `/api/fields/${fieldId}/fertilizer-applications`],
    ['empty harvest list', () => `/api/cultivations/${bareCultivationId}/harvests`],
  ];

  it.each(reads)('%s', async (name, path) => {
    const read = () => Promise.resolve(() => call(t.app, user.key, 'GET', path()));
    await statementsOf(200, read);
    const statements = await statementsOf(200, read);
    expect({ count: statements.length, statements }).toEqual({ count: EXPECTED_READS[name], statements });
  });
});
