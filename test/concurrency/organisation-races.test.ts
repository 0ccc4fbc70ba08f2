// Membership changes racing a member's requests, over real sockets, on both databases and across two processes
// on one PostgreSQL: once the removal has answered, no request sent after it reaches the organisation's farms,
// whatever the requests in flight did.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFarm, signUpWithKey, withTwoProcessesOnPostgres, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { created } from '../helpers/fixtures.js';
import { listenOn, startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;
/** Readers sending one request after another while the membership is removed. */
const READERS = 4;

interface Servers {
  /** Where the owner changes the membership. */
  admin: ListeningApp;
  /** Where the member reads. */
  reader: ListeningApp;
}

/** An organisation with `member` in it, and a farm of `owner` shared with it as advisor. */
async function sharedFarm({ admin }: Servers, owner: Account, member: Account) {
  const org = await created<{ id: string }>(admin.send(owner.key, 'POST', '/api/organisations', { name: 'Race BV' }));
  expect((await admin.send(owner.key, 'PUT', `/api/organisations/${org.id}/members`, { email: member.email, role: 'member' })).status).toBe(
    200,
  );
  const farm = (await createFarm(admin.app, owner.key)).b_id_farm;
  expect((await admin.send(owner.key, 'PUT', `/api/farms/${farm}/access`, { organisation: org.id, role: 'advisor' })).status).toBe(200);
  return { org: org.id, farm };
}

/**
 * Each round: the member reads (so the role is remembered), then readers keep sending reads, writes and the farm
 * list while the owner removes the member. Every request sent after the removal answered must find nothing.
 */
async function removalRaces(servers: Servers, owner: Account, member: Account) {
  const { admin, reader } = servers;
  for (let round = 0; round < ROUNDS; round++) {
    const { org, farm } = await sharedFarm(servers, owner, member);
    expect((await reader.send(member.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    let removed = false;
    const afterRemoval: Array<{ what: string; status: number; total?: number }> = [];
    const removal = admin.send(owner.key, 'DELETE', `/api/organisations/${org}/members/${encodeURIComponent(member.email)}`).then((r) => {
      removed = true;
      return r;
    });
    const requests = [
      () => reader.send(member.key, 'GET', `/api/farms/${farm}`),
      () => reader.send(member.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: `round ${round}` }),
      () => reader.send(member.key, 'GET', `/api/farms/${farm}/fields`),
      () => reader.send(member.key, 'GET', '/api/farms'),
    ];
    const readers = Array.from({ length: READERS }, async (_, i) => {
      // Until the removal has answered, and one more request each after it.
      for (;;) {
        const request = requests[i % requests.length]!;
        const sentAfter = removed;
        const response = await request();
        if (sentAfter) {
          const listed = i % requests.length === 3 ? ((await response.json()) as { pagination: { total: number } }) : undefined;
          afterRemoval.push({ what: `reader ${i}`, status: response.status, total: listed?.pagination.total });
          return;
        }
        await response.arrayBuffer();
      }
    });
    expect((await removal).status).toBe(204);
    await Promise.all(readers);
    for (const answer of afterRemoval) {
      if (answer.total !== undefined) expect(answer.total, `round ${round}, ${answer.what}`).toBe(0);
      else expect(answer.status, `round ${round}, ${answer.what}`).toBe(404);
    }
    expect((await reader.send(member.key, 'GET', `/api/farms/${farm}`)).status, `round ${round}`).toBe(404);
  }
}

describe.each(storageKinds)('organisation races (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;
  let member: Account;
  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
    member = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  test('a member removed while their requests are in flight reaches nothing with a request sent after the removal', async () => {
    await removalRaces({ admin: server, reader: server }, owner, member);
  });

  test('a farm unshared while a member reads it is not read afterwards', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { org, farm } = await sharedFarm({ admin: server, reader: server }, owner, member);
      expect((await server.send(member.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
      const [read, unshared] = await Promise.all([
        server.send(member.key, 'GET', `/api/farms/${farm}`),
        server.send(owner.key, 'DELETE', `/api/farms/${farm}/access/organisations/${org}`),
      ]);
      expect([200, 404]).toContain(read.status);
      expect(unshared.status).toBe(204);
      expect((await server.send(member.key, 'GET', `/api/farms/${farm}`)).status, `round ${round}`).toBe(404);
    }
  });

  test('an organisation deleted while a member reads is not read through afterwards', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { org, farm } = await sharedFarm({ admin: server, reader: server }, owner, member);
      expect((await server.send(member.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
      const [read, deleted] = await Promise.all([
        server.send(member.key, 'GET', `/api/farms/${farm}`),
        server.send(owner.key, 'DELETE', `/api/organisations/${org}`),
      ]);
      expect([200, 404]).toContain(read.status);
      expect(deleted.status).toBe(204);
      expect((await server.send(member.key, 'GET', `/api/farms/${farm}`)).status, `round ${round}`).toBe(404);
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('organisation races across two processes on one PostgreSQL', () => {
  test('a member removed in one process reaches nothing in the other with a request sent after the removal', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const [admin, reader] = [await listenOn(a), await listenOn(b)];
      try {
        const owner = await signUpWithKey(a.app);
        const member = await signUpWithKey(a.app);
        await removalRaces({ admin, reader }, owner, member);
      } finally {
        await Promise.all([admin, reader].map((server) => server.stopListening()));
      }
    });
  });
});
