// Idempotency-Key on POST: a retry gets the first answer and makes no second record; the key with another
// request is 422; a request while the first is at work is 409; entries expire, are swept, and are shared
// by every process on one database.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { sweepExpiredKeys } from '../../src/idempotency/sweeper.js';
import type { App } from '../../src/app/app.js';
import { expectProblem, signUpWithKey, startTestApp, withTwoProcessesOnPostgres, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { rectangle } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;

/** A POST with an API key, a JSON body and, when given, an Idempotency-Key. */
function post(app: App, key: string, path: string, body: unknown, idempotencyKey?: string): Promise<Response> {
  const headers: Record<string, string> = { 'x-api-key': key, 'content-type': 'application/json' };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  return Promise.resolve(app.request(path, { method: 'POST', body: JSON.stringify(body), headers }));
}

/** What a client compares between two answers. */
async function responseOf(response: Response) {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    location: response.headers.get('location'),
    etag: response.headers.get('etag'),
    body: await response.text(),
  };
}

async function farmCount(app: App, key: string): Promise<number> {
  const response = await app.request('/api/farms?limit=1', { headers: { 'x-api-key': key } });
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
}

let keys = 0;
const newKey = () => `key-${++keys}-${Date.now()}`;

describe.each(storageKinds)('Idempotency-Key (%s)', (kind) => {
  let t: TestApp;
  let user: Account;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t?.close());

  const entry = (key: string) =>
    queryRows<{ status: number | null }>(t.database.db, sql`select status from idempotency_keys where idempotency_key = ${key}`);

  it('answers a retried POST with the first answer, and makes one record', async () => {
    const key = newKey();
    const before = await farmCount(t.app, user.key);
    const first = await post(t.app, user.key, '/api/farms', { b_name_farm: 'De Hoeve' }, key);
    const retry = await post(t.app, user.key, '/api/farms', { b_name_farm: 'De Hoeve' }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const original = await responseOf(first);
    expect(await responseOf(retry)).toEqual(original);
    expect(original.location).toBe(`/api/farms/${(JSON.parse(original.body) as { b_id_farm: string }).b_id_farm}`);
    expect(await farmCount(t.app, user.key)).toBe(before + 1);
  });

  it('lets a browser read Idempotent-Replayed', async () => {
    const key = newKey();
    const headers = { origin: 'https://app.example', 'x-api-key': user.key, 'content-type': 'application/json', 'idempotency-key': key };
    const send = () => t.app.request('/api/farms', { method: 'POST', headers, body: JSON.stringify({ b_name_farm: 'Browser' }) });
    await send();
    const replayed = await send();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('access-control-expose-headers')!.split(',')).toContain('Idempotent-Replayed');
  });

  it('does as before without the header: each POST makes a record', async () => {
    const before = await farmCount(t.app, user.key);
    await post(t.app, user.key, '/api/farms', { b_name_farm: 'Zonder sleutel' });
    await post(t.app, user.key, '/api/farms', { b_name_farm: 'Zonder sleutel' });
    expect(await farmCount(t.app, user.key)).toBe(before + 2);
  });

  it('refuses the key with another body, or on another path, with 422 idempotency-key-reused', async () => {
    const key = newKey();
    const farm = (await (await post(t.app, user.key, '/api/farms', { b_name_farm: 'Eerste' }, key)).json()) as { b_id_farm: string };
    const before = await farmCount(t.app, user.key);
    await expectProblem(await post(t.app, user.key, '/api/farms', { b_name_farm: 'Tweede' }, key), 422, 'idempotency-key-reused');
    // The same members, written otherwise, are another body.
    await expectProblem(
      await post(t.app, user.key, '/api/farms', { b_name_farm: 'Eerste', b_address_farm: null }, key),
      422,
      'idempotency-key-reused',
    );
    const field = { b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01' };
    await expectProblem(await post(t.app, user.key, `/api/farms/${farm.b_id_farm}/fields`, field, key), 422, 'idempotency-key-reused');
    expect(await farmCount(t.app, user.key)).toBe(before);
  });

  it('replays a 4xx answer as it was: the same status, body and error_id', async () => {
    const key = newKey();
    const first = await responseOf(await post(t.app, user.key, '/api/farms', { b_name_farm: '' }, key));
    const retry = await post(t.app, user.key, '/api/farms', { b_name_farm: '' }, key);
    expect(first.status).toBe(400);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await responseOf(retry)).toEqual(first);
    const missing = newKey();
    const field = { b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01' };
    const notFound = await responseOf(await post(t.app, user.key, '/api/farms/Qm9Yp2Ag3sJb0u5X7vRk1c/fields', field, missing));
    expect(notFound.status).toBe(404);
    expect(await responseOf(await post(t.app, user.key, '/api/farms/Qm9Yp2Ag3sJb0u5X7vRk1c/fields', field, missing))).toEqual(notFound);
  });

  it('shares the keys of a user between all their API keys, and no key between users', async () => {
    const key = newKey();
    const secondKey = await t.app.request('/api/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'second' }),
      headers: { 'content-type': 'application/json', cookie: user.cookie },
    });
    const { key: other } = (await secondKey.json()) as { key: string };
    const first = await responseOf(await post(t.app, user.key, '/api/farms', { b_name_farm: 'Gedeeld' }, key));
    expect(await responseOf(await post(t.app, other, '/api/farms', { b_name_farm: 'Gedeeld' }, key))).toEqual(first);
    const stranger = await signUpWithKey(t.app);
    const theirs = await post(t.app, stranger.key, '/api/farms', { b_name_farm: 'Gedeeld' }, key);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await theirs.text()).not.toBe(first.body);
  });

  it('refuses a key that is not 1 to 255 visible ASCII characters with 400, and takes one of 255', async () => {
    for (const bad of ['', 'a b', 'x'.repeat(256), 'sleutel\u00e9']) {
      const problem = await expectProblem(await post(t.app, user.key, '/api/farms', { b_name_farm: 'x' }, bad), 400, 'validation-failed');
      expect(problem.errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringContaining('255') }]);
    }
    expect((await post(t.app, user.key, '/api/farms', { b_name_farm: 'x' }, `${'~'.repeat(250)}${newKey()}`.slice(-255))).status).toBe(201);
  });

  it('refuses the header on key creation, whose answer holds the raw key', async () => {
    const response = await t.app.request('/api/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'retried' }),
      headers: { 'content-type': 'application/json', 'x-api-key': user.key, 'idempotency-key': newKey() },
    });
    const problem = await expectProblem(response, 400, 'validation-failed');
    expect(problem.errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringContaining('raw key') }]);
  });

  it('answers 409 while the first request has no answer, and lets a request take over a reservation past the bound', async () => {
    const key = newKey();
    await post(t.app, user.key, '/api/farms', { b_name_farm: 'Onderweg' }, key);
    // As if the first request were still at work: its reservation without an answer.
    await t.database.db.execute(sql`update idempotency_keys set status = null where idempotency_key = ${key}`);
    const before = await farmCount(t.app, user.key);
    await expectProblem(await post(t.app, user.key, '/api/farms', { b_name_farm: 'Onderweg' }, key), 409, 'idempotency-in-progress');
    await expectProblem(await post(t.app, user.key, '/api/farms', { b_name_farm: 'Anders' }, key), 422, 'idempotency-key-reused');
    // Its process died: eleven minutes later the reservation is taken over, and the request runs again.
    await t.database.db.execute(
      sql`update idempotency_keys set reserved_at = now() - interval '11 minutes' where idempotency_key = ${key}`,
    );
    const takenOver = await post(t.app, user.key, '/api/farms', { b_name_farm: 'Anders' }, key);
    expect(takenOver.status).toBe(201);
    expect(takenOver.headers.get('idempotent-replayed')).toBeNull();
    expect(await farmCount(t.app, user.key)).toBe(before + 1);
    expect(await entry(key)).toEqual([{ status: 201 }]);
  });

  it('replays for 24 hours only, and the sweeper deletes expired entries in batches, and no others', async () => {
    const key = newKey();
    const first = await responseOf(await post(t.app, user.key, '/api/farms', { b_name_farm: 'Gisteren' }, key));
    await t.database.db.execute(
      sql`update idempotency_keys set reserved_at = now() - interval '24 hours 1 second' where idempotency_key = ${key}`,
    );
    const again = await responseOf(await post(t.app, user.key, '/api/farms', { b_name_farm: 'Gisteren' }, key));
    expect(again.status).toBe(201);
    expect(again.location).not.toBe(first.location);

    const fresh = newKey();
    await post(t.app, user.key, '/api/farms', { b_name_farm: 'Vandaag' }, fresh);
    await t.database.db.execute(
      sql`insert into idempotency_keys (user_id, idempotency_key, fingerprint, reservation, reserved_at, status)
          select ${user.userId}, 'expired-' || n, 'f', 'r', now() - interval '25 hours', 201 from generate_series(1, 1203) as n`,
    );
    expect(await sweepExpiredKeys(t.database.db)).toBe(1203);
    expect(await queryRows(t.database.db, sql`select 1 from idempotency_keys where reserved_at <= now() - interval '24 hours'`)).toEqual(
      [],
    );
    expect(await entry(fresh)).toEqual([{ status: 201 }]);
    expect(await entry(key)).toEqual([{ status: 201 }]);
  });

  it('describes the header on every POST under /api but key creation, with its 409 and 422', async () => {
    type Operation = {
      parameters?: Array<{ name: string }>;
      responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { examples?: Record<string, unknown> }> }>;
    };
    const document = (await (await t.app.request('/api/openapi.json')).json()) as { paths: Record<string, { post?: Operation }> };
    const posts = Object.entries(document.paths).filter(([path, item]) => path.startsWith('/api/') && item.post !== undefined);
    expect(posts.length).toBeGreaterThan(10);
    for (const [path, { post: operation }] of posts) {
      const named = operation!.parameters?.some((p) => p.name === 'Idempotency-Key') ?? false;
      expect(named, path).toBe(path !== '/api/keys');
      if (path === '/api/keys') continue;
      expect(Object.keys(operation!.responses['409']!.content!['application/problem+json']!.examples!), path).toContain(
        'idempotency-in-progress',
      );
      expect(Object.keys(operation!.responses['422']!.content!['application/problem+json']!.examples!), path).toContain(
        'idempotency-key-reused',
      );
      const success = Object.entries(operation!.responses).filter(([status]) => status.startsWith('2'));
      for (const [status, response] of success) expect(response.headers, `${path} ${status}`).toHaveProperty('Idempotent-Replayed');
    }
  });
});

describe.each(storageKinds)('Idempotency-Key over a listening server (%s)', (kind) => {
  let server: ListeningApp;
  let user: Account;

  beforeAll(async () => {
    server = await startListeningApp(kind);
    user = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  const send = (key: string, name: string) =>
    fetch(`${server.url}/api/farms`, {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ b_name_farm: name }),
    });

  it(`lets one of two concurrent requests with one key do the work, the other 409 or the replay (${ROUNDS} rounds)`, async () => {
    const before = await farmCount(server.app, user.key);
    for (let round = 0; round < ROUNDS; round++) {
      const key = newKey();
      const answers = await Promise.all([send(key, `Ronde ${round}`), send(key, `Ronde ${round}`)]);
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.every((s) => s === 201 || s === 409),
        `round ${round}: ${statuses.join(', ')}`,
      ).toBe(true);
      const done = answers.filter((a) => a.status === 201);
      expect(
        done.filter((a) => a.headers.get('idempotent-replayed') === null),
        `round ${round}`,
      ).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status === 409)) await expectProblem(refused, 409, 'idempotency-in-progress');
      // Once the first is answered, every retry gets its answer.
      const locations = new Set(done.map((a) => a.headers.get('location')));
      locations.add((await send(key, `Ronde ${round}`)).headers.get('location'));
      expect(locations.size, `round ${round}`).toBe(1);
    }
    expect(await farmCount(server.app, user.key)).toBe(before + ROUNDS);
  });
});

describe.runIf(storageKinds.includes('postgres'))('Idempotency-Key across processes on one PostgreSQL', () => {
  it('replays in one process the answer the other gave, and refuses the key with another body there', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const user = await signUpWithKey(a.app);
      const key = newKey();
      const first = await responseOf(await post(a.app, user.key, '/api/farms', { b_name_farm: 'Twee processen' }, key));
      expect(first.status).toBe(201);
      const replayed = await post(b.app, user.key, '/api/farms', { b_name_farm: 'Twee processen' }, key);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(await responseOf(replayed)).toEqual(first);
      await expectProblem(await post(b.app, user.key, '/api/farms', { b_name_farm: 'Ander' }, key), 422, 'idempotency-key-reused');
      expect(await farmCount(b.app, user.key)).toBe(1);
    });
  });
});
