// A farm's access version (db/schema.ts `farms.access_version`) moves on with every change of a role on
// that farm that can take access away, and a user's (`users.access_version`) with every change that takes
// access away from that user everywhere (a key, a membership), and with nothing else, so that processes
// sharing PostgreSQL can trust what they remember in between (access/access-memory.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { call, createFarm, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';

describe.each(storageKinds)('the access version of a farm (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** The versions of farms and users, by id (identifiers of the two kinds never coincide). */
  const versions = async (...ids: string[]) => {
    const rows = await queryRows<{ id: string; version: string }>(
      t.database.db,
      sql`select b_id_farm as id, access_version::text as version from farms where b_id_farm in ${ids}
          union all select user_id, access_version::text from users where user_id in ${ids}`,
    );
    return ids.map((id) => BigInt(rows.find((row) => row.id === id)!.version));
  };
  /** How far the version of each farm or user moves while `change` runs. */
  const steps = async (ids: string[], change: () => Promise<unknown>) => {
    const before = await versions(...ids);
    await change();
    return (await versions(...ids)).map((after, i) => Number(after - before[i]!));
  };
  const expectStatus = async (response: Promise<Response>, status: number) => expect((await response).status).toBe(status);

  it('stays put for new keys, reads, updates of the farm, a first grant and the record of a key use', async () => {
    const owner = await signUpWithKey(t.app);
    const colleague = await signUpWithKey(t.app);
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    expect(
      await steps([farm, owner.userId, colleague.userId], async () => {
        await signUpWithKey(t.app);
        const newKey = {
          method: 'POST',
          body: JSON.stringify({ name: 'second' }),
          headers: { 'content-type': 'application/json', cookie: owner.cookie },
        };
        await expectStatus(Promise.resolve(t.app.request('/api/keys', newKey)), 201);
        await expectStatus(call(t.app, owner.key, 'GET', `/api/farms/${farm}`), 200);
        await expectStatus(call(t.app, owner.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'Renamed' }), 200);
        await expectStatus(call(t.app, owner.key, 'PUT', `/api/farms/${farm}/access`, { email: colleague.email, role: 'advisor' }), 200);
        await t.database.db.execute(sql`update api_keys set last_used_at = now() where key_id = ${owner.keyId}`);
      }),
    ).toEqual([0, 0, 0]);
  });

  it('moves the farm on for a role changed or removed, and the user for a key revoked, given another expiry or deleted', async () => {
    const owner = await signUpWithKey(t.app);
    const colleague = await signUpWithKey(t.app);
    const [shared, ownersOnly] = [(await createFarm(t.app, owner.key)).b_id_farm, (await createFarm(t.app, owner.key)).b_id_farm];
    const watched = [shared, ownersOnly, owner.userId, colleague.userId];
    const share = (role: string) => call(t.app, owner.key, 'PUT', `/api/farms/${shared}/access`, { email: colleague.email, role });
    await expectStatus(share('advisor'), 200);

    expect(await steps(watched, () => expectStatus(share('researcher'), 200))).toEqual([1, 0, 0, 0]);
    expect(await steps(watched, () => expectStatus(call(t.app, colleague.key, 'DELETE', `/api/keys/${colleague.keyId}`), 204))).toEqual([
      0, 0, 0, 1,
    ]);
    const second = await signUpWithKey(t.app);
    expect(
      await steps(watched, () =>
        t.database.db.execute(sql`update api_keys set expires_at = now() + interval '1 day' where user_id = ${owner.userId}`),
      ),
    ).toEqual([0, 0, 1, 0]);
    expect(await steps(watched, () => t.database.db.execute(sql`delete from api_keys where key_id = ${owner.keyId}`))).toEqual([
      0, 0, 1, 0,
    ]);
    expect(
      await steps([...watched, second.userId], () => t.database.db.execute(sql`delete from api_keys where key_id = ${second.keyId}`)),
    ).toEqual([0, 0, 0, 0, 1]);
    expect(
      await steps(watched, () =>
        t.database.db.execute(sql`delete from farm_access where b_id_farm = ${shared} and user_id = ${colleague.userId}`),
      ),
    ).toEqual([1, 0, 0, 0]);
  });
});
