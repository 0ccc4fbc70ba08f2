// The responses stored for Idempotency-Keys count against a budget per user (bytes and entries with a body);
// over it a key is still honoured, but its response is stored without the body: the retry gets the status,
// Location and ETag, no body, and `Idempotent-Body: omitted` (docs/api.md, Idempotency-Key).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import type { App } from '../../src/app/app.js';
import { createFarm, expectProblem, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';

const BUDGET_BYTES = 200_000;
const BUDGET_ENTRIES = 5;
// A field answered with ~60 KB of geometry: eight of them are more than twice the budget.
const RING_POSITIONS = 2_500;
const FIELDS = 8;

function circle(positions: number, lon: number) {
  const ring = Array.from({ length: positions - 1 }, (_, i) => {
    const angle = (2 * Math.PI * i) / (positions - 1);
    return [Number((lon + 0.002 * Math.cos(angle)).toFixed(7)), Number((52 + 0.0013 * Math.sin(angle)).toFixed(7))];
  });
  return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
}

function post(app: App, key: string, path: string, body: string, idempotencyKey: string): Promise<Response> {
  const headers = { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': idempotencyKey };
  return Promise.resolve(app.request(path, { method: 'POST', body, headers }));
}

async function responseOf(response: Response) {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    location: response.headers.get('location'),
    etag: response.headers.get('etag'),
    replayed: response.headers.get('idempotent-replayed'),
    bodyField: response.headers.get('idempotent-body'),
    body: await response.text(),
  };
}

describe.each(storageKinds)('Idempotency-Key within a budget per user (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      IDEMPOTENCY_USER_BYTES: String(BUDGET_BYTES),
      IDEMPOTENCY_USER_ENTRIES: String(BUDGET_ENTRIES),
    });
  });
  afterAll(() => t?.close());

  const storedBodies = (userId: string) =>
    queryRows<{ entries: number; bytes: number }>(
      t.database.db,
      sql`select count(*)::int as entries, coalesce(sum(octet_length(body)), 0)::int as bytes
            from idempotency_keys where user_id = ${userId} and body is not null`,
    ).then((rows) => rows[0]!);

  it('stores bodies up to the byte budget, even for concurrent writes, and the rest without: a retry has status, Location and ETag', async () => {
    const user = await signUpWithKey(t.app);
    const farm = (await createFarm(t.app, user.key)).b_id_farm;
    const bodies = Array.from({ length: FIELDS }, (_, i) =>
      JSON.stringify({ b_name: `Perceel ${i}`, b_start: '2020-01-01', b_geometry: circle(RING_POSITIONS, 5 + i * 0.01) }),
    );
    const path = `/api/farms/${farm}/fields`;
    const firsts = await Promise.all(bodies.map(async (body, i) => responseOf(await post(t.app, user.key, path, body, `field-${i}`))));
    expect(firsts.map((first) => first.status)).toEqual(bodies.map(() => 201));
    expect(firsts[0]!.body.length).toBeGreaterThan(BUDGET_BYTES / 4);

    const stored = await storedBodies(user.userId);
    expect(stored.bytes).toBeGreaterThan(0);
    expect(stored.bytes).toBeLessThanOrEqual(BUDGET_BYTES);

    const retries = await Promise.all(bodies.map(async (body, i) => responseOf(await post(t.app, user.key, path, body, `field-${i}`))));
    let omitted = 0;
    retries.forEach((retry, i) => {
      const first = firsts[i]!;
      expect({ status: retry.status, location: retry.location, etag: retry.etag, replayed: retry.replayed }).toEqual({
        status: 201,
        location: first.location,
        etag: first.etag,
        replayed: 'true',
      });
      if (retry.bodyField === 'omitted') {
        omitted++;
        expect({ body: retry.body, contentType: retry.contentType }).toEqual({ body: '', contentType: null });
      } else {
        expect(retry.bodyField).toBeNull();
        expect(retry.body).toBe(first.body);
      }
    });
    expect(omitted).toBe(FIELDS - stored.entries);
    expect(omitted).toBeGreaterThan(0);
    // Each write was done once.
    const list = (await (await t.app.request(`${path}?limit=50`, { headers: { 'x-api-key': user.key } })).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(FIELDS);
  });

  it('stores the body of at most the entry budget, problems included; the others are replayed by status alone', async () => {
    const user = await signUpWithKey(t.app);
    for (let i = 0; i < BUDGET_ENTRIES; i++) {
      expect((await post(t.app, user.key, '/api/farms', JSON.stringify({ b_name_farm: `Hoeve ${i}` }), `farm-${i}`)).status).toBe(201);
    }
    const invalid = JSON.stringify({ b_name_farm: '' });
    await expectProblem(await post(t.app, user.key, '/api/farms', invalid, 'invalid'), 400, 'validation-failed');
    expect(await storedBodies(user.userId)).toMatchObject({ entries: BUDGET_ENTRIES });
    const replayed = await responseOf(await post(t.app, user.key, '/api/farms', invalid, 'invalid'));
    expect(replayed).toMatchObject({ status: 400, replayed: 'true', bodyField: 'omitted', body: '', contentType: null });
    const full = await responseOf(await post(t.app, user.key, '/api/farms', JSON.stringify({ b_name_farm: 'Hoeve 0' }), 'farm-0'));
    expect(full).toMatchObject({ status: 201, replayed: 'true', bodyField: null });
    expect(JSON.parse(full.body)).toMatchObject({ b_name_farm: 'Hoeve 0' });
  });
});
