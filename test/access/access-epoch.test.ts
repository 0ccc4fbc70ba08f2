// The access epoch (src/access/access-epoch.ts) moves on with every change that can take access away,
// and with nothing else, so that processes sharing PostgreSQL can trust what they remember in between.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { call, createFarm, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';

describe.each(storageKinds)('the access epoch (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const epoch = async () =>
    BigInt((await queryRows<{ value: string }>(t.database.db, sql`select value::text as value from access_epoch`))[0]!.value);
  /** How far the epoch moves while `change` runs. */
  const steps = async (change: () => Promise<unknown>) => {
    const before = await epoch();
    await change();
    return Number((await epoch()) - before);
  };
  const expectStatus = async (response: Promise<Response>, status: number) => expect((await response).status).toBe(status);

  it('stays put for sign-up, new keys, new farms, reads and the record of a key use', async () => {
    expect(
      await steps(async () => {
        const owner = await signUpWithKey(t.app);
        const farm = await createFarm(t.app, owner.key);
        await expectStatus(call(t.app, owner.key, 'GET', `/api/farms/${farm.b_id_farm}`), 200);
        await expectStatus(call(t.app, owner.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: 'Renamed' }), 200);
        await t.database.db.execute(sql`update api_keys set last_used_at = now() where key_id = ${owner.keyId}`);
      }),
    ).toBe(0);
  });

  it('moves on a grant, a role change, a removal of access, a key revocation and a farm deletion', async () => {
    const owner = await signUpWithKey(t.app);
    const colleague = await signUpWithKey(t.app);
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    const share = (role: string) => call(t.app, owner.key, 'PUT', `/api/farms/${farm}/access`, { email: colleague.email, role });

    expect(await steps(() => expectStatus(share('advisor'), 200))).toBeGreaterThan(0);
    expect(await steps(() => expectStatus(share('researcher'), 200))).toBeGreaterThan(0);
    expect(
      await steps(() =>
        expectStatus(call(t.app, owner.key, 'DELETE', `/api/farms/${farm}/access/${encodeURIComponent(colleague.email)}`), 204),
      ),
    ).toBeGreaterThan(0);
    expect(await steps(() => expectStatus(call(t.app, colleague.key, 'DELETE', `/api/keys/${colleague.keyId}`), 204))).toBeGreaterThan(0);
    expect(await steps(() => expectStatus(call(t.app, owner.key, 'DELETE', `/api/farms/${farm}`), 204))).toBeGreaterThan(0);
  });

  it('holds exactly one row', async () => {
    await expect(t.database.db.execute(sql`insert into access_epoch (value) values (1)`)).rejects.toThrow();
    expect(await queryRows(t.database.db, sql`select * from access_epoch`)).toHaveLength(1);
  });
});
