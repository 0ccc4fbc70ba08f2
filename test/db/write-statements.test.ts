// How many statements each write of the load test's mix sends to the database, BEGIN and COMMIT included:
// pinned, so that a feature which adds one to every write is seen (docs/performance.md, "Statements per
// write"). Counted through the database handle's statement listener, on each storage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOn, call, createFarm, signUpWithKey, type Account, type TestApp } from '../helpers/app.js';
import { openTestDatabase, storageKinds } from '../helpers/databases.js';
import { createField, rectangle } from '../helpers/fixtures.js';

/**
 * The statements of each write, the same on both databases: the key looked up (a write is never served
 * on a remembered key alone), BEGIN, the farm held, access asked under the lock, the write (a field's
 * delete: its cascade, five statements), the audit entry, COMMIT.
 */
const EXPECTED = {
  'create field': 7,
  'add soil analysis': 7,
  'update farm': 7,
  'add cultivation': 7,
  'delete field': 11,
};

describe.each(storageKinds)('statements per write on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let fieldId: string;
  let sent: string[] | undefined;

  beforeAll(async () => {
    t = appOn(await openTestDatabase(kind, (text) => sent?.push(text)));
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    fieldId = (await createField(t.app, user.key, farmId)).b_id;
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
});
