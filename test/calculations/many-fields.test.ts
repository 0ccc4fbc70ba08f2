// A farm's calculation loads all its fields' records in a fixed number of statements, none of which
// carries one parameter per field: PostgreSQL's protocol takes at most 65,535 per statement.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createField, makeCalculable } from '../helpers/fixtures.js';

const BULK_FIELDS = 70_000;

describe.each(storageKinds)('a farm of 70,000 fields on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let fieldId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    fieldId = (await createField(t.app, user.key, farmId, { b_start: '2024-01-01' })).b_id;
    await makeCalculable(t.app, user.key, fieldId);
    // Copies of the field made in bulk, as an import would; each through the API would take minutes.
    await t.database.db.execute(sql`
      insert into fields (b_id, b_id_farm, b_name, b_geometry, b_area, b_centroid, b_start, b_end, b_acquiring_method, b_bufferstrip)
      select 'bulk-' || n, b_id_farm, b_name || ' ' || n, b_geometry, b_area, b_centroid, b_start, b_end, b_acquiring_method, b_bufferstrip
      from fields, generate_series(1, ${BULK_FIELDS}) as n where b_id = ${fieldId}`);
  });
  afterAll(() => t?.close());

  it('calculates its nitrogen balance with every field, the one with records among them', async () => {
    const response = await call(t.app, user.key, 'POST', `/api/farms/${farmId}/calculations/nitrogen-balance`, {
      start: '2025-01-01',
      end: '2025-12-31',
    });
    expect(response.status).toBe(200);
    const balance = (await response.json()) as { fields: Array<{ b_id: string; balance: unknown }> };
    expect(balance.fields).toHaveLength(BULK_FIELDS + 1);
    // Only the original has a cultivation and a soil analysis: its records were loaded and used.
    expect(balance.fields.filter((field) => field.balance !== null).map((field) => field.b_id)).toEqual([fieldId]);
  });
});
