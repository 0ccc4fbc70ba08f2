// The simplified outline of a field (`?geometry=simplified`) is computed when the field is written and
// stored, so a read answers what is stored and never simplifies: its cost does not grow with the
// positions of the fields it reads. A field stored before the outline was (migration 0016) gets one
// from the backfill, which changes nothing else a reader sees.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { circle, createField, rectangle } from '../helpers/fixtures.js';
import { queryRows } from '../../src/db/client.js';
import { backfillOutlines } from '../../src/resources/fields/outline-backfill.js';
import { simplifyGeometry } from '../../src/resources/fields/simplify.js';

const GEOJSON = 'application/geo+json';
/** A triangle no simplification of the fields below would make: an answer holding it was read, not computed. */
const MARKER = {
  type: 'Polygon',
  coordinates: [
    [
      [1, 1],
      [1.001, 1],
      [1, 1.001],
      [1, 1],
    ],
  ],
};

describe.each(storageKinds)('stored simplified outlines on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;

  const read = async (path: string, accept = 'application/json') => {
    const response = await t.app.request(path, { headers: { 'x-api-key': user.key, accept } });
    expect(response.status).toBe(200);
    return { body: (await response.json()) as Record<string, unknown>, etag: response.headers.get('etag') };
  };
  const storedOutline = async (fieldId: string) =>
    (
      await queryRows<{ outline: unknown }>(t.database.db, sql`select b_geometry_simplified as outline from fields where b_id = ${fieldId}`)
    )[0]!.outline;
  const feedEnd = async () => (await read(`/api/farms/${farmId}/changes?limit=200`)).body.next;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
  });
  afterAll(() => t.close());

  it('stores the simplified outline with every write of a geometry, and a read answers it as stored', async () => {
    const geometry = circle(10_000);
    const { b_id } = await createField(t.app, user.key, farmId, { b_geometry: geometry });
    expect(await storedOutline(b_id)).toEqual(simplifyGeometry(geometry as never));
    const changed = circle(5_000, 5.6);
    expect((await call(t.app, user.key, 'PATCH', `/api/fields/${b_id}`, { b_geometry: changed })).status).toBe(200);
    expect(await storedOutline(b_id)).toEqual(simplifyGeometry(changed as never));

    // The stored outline is what both reads answer: neither simplifies the geometry again.
    await t.database.db.execute(sql`update fields set b_geometry_simplified = ${JSON.stringify(MARKER)}::jsonb where b_id = ${b_id}`);
    expect((await read(`/api/fields/${b_id}?geometry=simplified`)).body.b_geometry).toEqual(MARKER);
    const page = (await read(`/api/farms/${farmId}/fields?geometry=simplified`, GEOJSON)).body as {
      features: Array<{ id: string; geometry: unknown }>;
    };
    expect(page.features.find((feature) => feature.id === b_id)?.geometry).toEqual(MARKER);
    // As stored, the geometry is the one sent.
    expect((await read(`/api/fields/${b_id}`)).body.b_geometry).toEqual(changed);
  });

  it('fills in the outline of a field stored without one, leaving its updated_at, ETag and change feed as they were', async () => {
    const geometry = circle(3_000, 5.7);
    const { b_id } = await createField(t.app, user.key, farmId, { b_geometry: geometry });
    const small = (await createField(t.app, user.key, farmId, { b_geometry: rectangle(5.8) })).b_id;
    // As a row written before migration 0016 is.
    await t.database.db.execute(sql`update fields set b_geometry_simplified = null where b_id in (${b_id}, ${small})`);
    const before = await read(`/api/fields/${b_id}`);
    const simplifiedBefore = await read(`/api/fields/${b_id}?geometry=simplified`);
    const feedBefore = await feedEnd();

    expect(await backfillOutlines(t.database.db)).toBe(2);
    expect(await storedOutline(b_id)).toEqual(simplifyGeometry(geometry as never));
    expect(await storedOutline(small)).toEqual(rectangle(5.8));
    const after = await read(`/api/fields/${b_id}`);
    expect(after.etag).toBe(before.etag);
    expect(after.body.updated_at).toBe(before.body.updated_at);
    expect(await read(`/api/fields/${b_id}?geometry=simplified`)).toEqual(simplifiedBefore);
    expect(await feedEnd()).toBe(feedBefore);
    expect(await backfillOutlines(t.database.db)).toBe(0);

    // A write after it still moves updated_at and the feed.
    expect((await call(t.app, user.key, 'PATCH', `/api/fields/${b_id}`, { b_name: 'Na' })).status).toBe(200);
    expect((await read(`/api/fields/${b_id}`)).body.updated_at).not.toBe(before.body.updated_at);
    expect(await feedEnd()).not.toBe(feedBefore);
  });
});
