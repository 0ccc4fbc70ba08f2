// The farm's own records (derogations, grazing intentions, organic certifications) under overlapping writes,
// over real sockets: PUTs of one year make one record and exactly one 201; a record added while its farm is
// deleted is refused with 404 or deleted with it, never a 5xx, never left behind.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { createFarm, signUpWithKey, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { organicCertificationBody } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;

const puts = [
  { kind: 'derogation', path: (farm: string) => `/api/farms/${farm}/derogations/2025`, body: undefined },
  {
    kind: 'grazing intention',
    path: (farm: string) => `/api/farms/${farm}/grazing-intentions/2025`,
    body: { b_grazing_intention: true },
  },
];

const additions = [
  ...puts.map(({ kind, path, body }) => ({ kind, method: 'PUT', path, body })),
  {
    kind: 'organic certification',
    method: 'POST',
    path: (farm: string) => `/api/farms/${farm}/organic-certifications`,
    body: organicCertificationBody,
  },
];

describe.each(storageKinds)('races of a farm’s records per year (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;

  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  /** The rows of the three tables that still name `farm`. */
  const rowsOf = async (farm: string) => {
    const [row] = await queryRows<{ n: number }>(
      server.database.db,
      sql`select (select count(*) from derogations where b_id_farm = ${farm})
               + (select count(*) from grazing_intentions where b_id_farm = ${farm})
               + (select count(*) from organic_certifications where b_id_farm = ${farm}) as n`,
    );
    return Number(row!.n);
  };

  test.each(puts)('three PUTs of one $kind at once: one 201, two 200, one record', async ({ path, body }) => {
    for (let round = 0; round < ROUNDS; round++) {
      const farm = (await createFarm(server.app, owner.key)).b_id_farm;
      const answers = await Promise.all(Array.from({ length: 3 }, () => server.send(owner.key, 'PUT', path(farm), body)));
      expect(answers.map((a) => a.status).sort(), `round ${round}`).toEqual([200, 200, 201]);
      expect(await rowsOf(farm), `round ${round}`).toBe(1);
    }
  });

  test.each(additions)('a $kind added while its farm is deleted: 201 or 404 only, nothing left', async ({ method, path, body }) => {
    for (let round = 0; round < ROUNDS; round++) {
      const farm = (await createFarm(server.app, owner.key)).b_id_farm;
      const [added, deleted] = await Promise.all([
        server.send(owner.key, method, path(farm), body),
        server.send(owner.key, 'DELETE', `/api/farms/${farm}`),
      ]);
      expect(deleted.status, `round ${round}`).toBe(204);
      expect([201, 404], `round ${round}: ${await added.clone().text()}`).toContain(added.status);
      expect(await rowsOf(farm), `round ${round}`).toBe(0);
    }
  });
});
