// Changes of access racing a user's first read, over real sockets: whatever the interleaving, the
// request after both have answered sees the change. And a long cascade delete must not hold up
// other requests.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFarm, signUpWithKey, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createField, created } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;

describe.each(storageKinds)('access races (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;
  let other: Account;

  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
    other = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  const grant = (farmId: string, role = 'researcher') =>
    server.send(owner.key, 'PUT', `/api/farms/${farmId}/access`, { email: other.email, role });
  const revoke = (farmId: string) => server.send(owner.key, 'DELETE', `/api/farms/${farmId}/access/${encodeURIComponent(other.email)}`);
  const readFarm = (key: string, farmId: string) => server.send(key, 'GET', `/api/farms/${farmId}`);

  test('a role removed while its first read is in flight reads nothing afterwards', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const farm = await createFarm(server.app, owner.key);
      expect((await grant(farm.b_id_farm)).status).toBe(200);
      const [read, removed] = await Promise.all([readFarm(other.key, farm.b_id_farm), revoke(farm.b_id_farm)]);
      expect([200, 404]).toContain(read.status);
      expect(removed.status).toBe(204);
      expect((await readFarm(other.key, farm.b_id_farm)).status, `round ${round}`).toBe(404);
      expect((await server.send(other.key, 'GET', `/api/farms/${farm.b_id_farm}/fields`)).status).toBe(404);
    }
  });

  test('a role granted while a first read is in flight reads the farm afterwards', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const farm = await createFarm(server.app, owner.key);
      const [read, granted] = await Promise.all([readFarm(other.key, farm.b_id_farm), grant(farm.b_id_farm)]);
      expect([200, 404]).toContain(read.status);
      expect(granted.status).toBe(200);
      expect((await readFarm(other.key, farm.b_id_farm)).status, `round ${round}`).toBe(200);
    }
  });

  test('a role lowered while a first write is in flight writes nothing afterwards', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const farm = await createFarm(server.app, owner.key);
      expect((await grant(farm.b_id_farm, 'advisor')).status).toBe(200);
      const [read, lowered] = await Promise.all([readFarm(other.key, farm.b_id_farm), grant(farm.b_id_farm, 'researcher')]);
      expect(read.status).toBe(200);
      expect(lowered.status).toBe(200);
      const write = await server.send(other.key, 'PATCH', `/api/farms/${farm.b_id_farm}`, { b_name_farm: 'Renamed' });
      expect(write.status, `round ${round}`).toBe(403);
    }
  });

  test('a key revoked while its first read is in flight is refused afterwards', async () => {
    const farm = await createFarm(server.app, owner.key);
    for (let round = 0; round < ROUNDS; round++) {
      const key = await created<{ key: string; id: string }>(
        fetch(`${server.url}/api/keys`, {
          method: 'POST',
          headers: { cookie: owner.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `round ${round}` }),
        }),
      );
      const [read, revoked] = await Promise.all([
        readFarm(key.key, farm.b_id_farm),
        fetch(`${server.url}/api/keys/${key.id}`, { method: 'DELETE', headers: { cookie: owner.cookie } }),
      ]);
      expect([200, 401]).toContain(read.status);
      expect(revoked.status).toBe(204);
      expect((await readFarm(key.key, farm.b_id_farm)).status, `round ${round}`).toBe(401);
    }
  });

  test('/health is answered while a cascade delete of 100,000 rows runs', async () => {
    const farm = await createFarm(server.app, owner.key);
    const field = await createField(server.app, owner.key, farm.b_id_farm);
    await server.database.db.execute(sql`
      insert into soil_analyses (a_id, b_id, a_source, a_depth_upper, parameters)
      select 'bulk-' || n, ${field.b_id}, 'other', 0, '{}'::jsonb from generate_series(1, 100000) as n`);

    let deleted = false;
    const healthWaits: number[] = [];
    const deletion = server.send(owner.key, 'DELETE', `/api/farms/${farm.b_id_farm}`).then((response) => {
      deleted = true;
      return response;
    });
    const answeredBeforeDelete: number[] = [];
    while (!deleted) {
      const started = performance.now();
      const health = await fetch(`${server.url}/health`);
      healthWaits.push(performance.now() - started);
      if (!deleted) answeredBeforeDelete.push(health.status);
    }
    expect((await deletion).status).toBe(204);
    console.log(
      `[${kind}] /health answered ${answeredBeforeDelete.length} times during the cascade delete; longest wait ${Math.max(...healthWaits).toFixed(0)} ms`,
    );
    expect(answeredBeforeDelete.length).toBeGreaterThanOrEqual(3);
    expect(answeredBeforeDelete.every((status) => status === 200)).toBe(true);
    expect((await readFarm(owner.key, farm.b_id_farm)).status).toBe(404);
  });
});
