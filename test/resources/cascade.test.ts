// Delete semantics: hard deletes that cascade in the order of the table, all or nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { created, createField, organicCertificationBody } from '../helpers/fixtures.js';

// Every table of the schema is counted but those that do not belong to a farm: the accounts, the audit
// trail, which outlives what it records by design (its entries hold no contents), and the user's
// idempotency keys, whose stored answers are replayed for 24 h whatever happened since.
const NOT_FARM_DATA = new Set(['users', 'sessions', 'api_keys', 'audit_log', 'idempotency_keys']);

async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const tables = await queryRows<{ tablename: string }>(
    t.database.db,
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  );
  const counts: Record<string, number> = {};
  for (const { tablename } of tables.filter((table) => !NOT_FARM_DATA.has(table.tablename))) {
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ${sql.identifier(tablename)}`);
    counts[tablename] = row!.n;
  }
  return counts;
}

/**
 * A farm with 2 derogation years, 2 grazing intentions, 2 organic certifications and 2 fields, each with
 * 2 cultivations (with harvests), 2 soil analyses and 3 fertilizer applications.
 */
async function buildFarm(t: TestApp, key: string) {
  const farmId = (await createFarm(t.app, key)).b_id_farm;
  for (const year of [2024, 2025]) {
    expect((await call(t.app, key, 'PUT', `/api/farms/${farmId}/derogations/${year}`)).status).toBe(201);
    expect(
      (await call(t.app, key, 'PUT', `/api/farms/${farmId}/grazing-intentions/${year}`, { b_grazing_intention: year === 2025 })).status,
    ).toBe(201);
    await created(call(t.app, key, 'POST', `/api/farms/${farmId}/organic-certifications`, organicCertificationBody));
  }
  const fertilizer = await created<{ p_id: string }>(
    call(t.app, key, 'POST', `/api/farms/${farmId}/fertilizers`, { p_id_catalogue: 'BAAT028' }),
  );
  const cultivationIds: string[] = [];
  for (let f = 0; f < 2; f++) {
    const field = await createField(t.app, key, farmId);
    // Winter wheat with an end date gets its harvest automatically; grass gets one recorded.
    const wheat = await created<{ b_lu: string }>(
      call(t.app, key, 'POST', `/api/fields/${field.b_id}/cultivations`, {
        b_lu_catalogue: 'nl_233',
        b_lu_start: '2024-10-20',
        b_lu_end: '2025-08-05',
        m_cropresidue: false,
      }),
    );
    const grass = await created<{ b_lu: string }>(
      call(t.app, key, 'POST', `/api/fields/${field.b_id}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' }),
    );
    await created(
      call(t.app, key, 'POST', `/api/cultivations/${grass.b_lu}/harvests`, {
        b_lu_harvest_date: '2025-06-01',
        b_lu_yield: 3000,
        b_lu_cp: 170,
      }),
    );
    cultivationIds.push(wheat.b_lu, grass.b_lu);
    for (let s = 0; s < 2; s++) {
      await created(
        call(t.app, key, 'POST', `/api/fields/${field.b_id}/soil-analyses`, {
          b_sampling_date: `2025-0${s + 1}-15`,
          b_soiltype_agr: 'zeeklei',
          a_som_loi: 3.5,
        }),
      );
    }
    for (let a = 0; a < 3; a++) {
      await created(
        call(t.app, key, 'POST', `/api/fields/${field.b_id}/fertilizer-applications`, {
          p_id: fertilizer.p_id,
          p_app_amount_display: 300,
          p_app_method: 'broadcasting',
          p_app_date: `2025-03-0${a + 1}`,
        }),
      );
    }
  }
  return { farmId, cultivationIds };
}

describe.each(storageKinds)('cascading deletes on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  it('leaves no row of anything below a deleted farm, in any table, and keeps other farms whole', async () => {
    const organisation = await created<{ id: string }>(call(t.app, user.key, 'POST', '/api/organisations', { name: 'Cascade BV' }));
    const before = await rowCounts(t);
    const other = await buildFarm(t, user.key);
    const withOther = await rowCounts(t);
    const { farmId } = await buildFarm(t, user.key);
    // Shared with an organisation and with an address that has no account yet: both roles go with the farm.
    expect(
      (await call(t.app, user.key, 'PUT', `/api/farms/${farmId}/access`, { organisation: organisation.id, role: 'advisor' })).status,
    ).toBe(200);
    expect(
      (await call(t.app, user.key, 'PUT', `/api/farms/${farmId}/access`, { email: 'not-yet@example.org', role: 'advisor' })).status,
    ).toBe(200);
    expect(await rowCounts(t)).toEqual({
      ...withOther,
      farms: withOther.farms! + 1,
      farm_access: withOther.farm_access! + 1,
      fields: withOther.fields! + 2,
      cultivations: withOther.cultivations! + 4,
      harvests: withOther.harvests! + 4,
      soil_analyses: withOther.soil_analyses! + 4,
      farm_fertilizers: withOther.farm_fertilizers! + 1,
      fertilizer_applications: withOther.fertilizer_applications! + 6,
      // The farm's change feed: every create (and the updates some of them make) is an entry.
      farm_changes: expect.any(Number) as number,
      farm_change_horizons: withOther.farm_change_horizons!,
      derogations: withOther.derogations! + 2,
      grazing_intentions: withOther.grazing_intentions! + 2,
      organic_certifications: withOther.organic_certifications! + 2,
      organisation_farm_access: withOther.organisation_farm_access! + 1,
      pending_farm_access: withOther.pending_farm_access! + 1,
      organisation_audit: withOther.organisation_audit! + 1,
    });

    expect((await call(t.app, user.key, 'DELETE', `/api/farms/${farmId}`)).status).toBe(204);
    // The organisation's trail keeps its record of the share.
    expect(await rowCounts(t)).toEqual({ ...withOther, organisation_audit: withOther.organisation_audit! + 1 });
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/farms/${farmId}`), 404, 'not-found');

    expect((await call(t.app, user.key, 'DELETE', `/api/farms/${other.farmId}`)).status).toBe(204);
    expect(await rowCounts(t)).toEqual({ ...before, organisation_audit: before.organisation_audit! + 1 });
  });

  it('deletes a cultivation with its harvests and keeps the fertilizer applications; a field takes everything', async () => {
    const { cultivationIds } = await buildFarm(t, user.key);
    const before = await rowCounts(t);
    expect((await call(t.app, user.key, 'DELETE', `/api/cultivations/${cultivationIds[0]}`)).status).toBe(204);
    const after = await rowCounts(t);
    // The feed gains one entry: the cultivation's tombstone, which lists its harvest too.
    expect(after).toEqual({
      ...before,
      cultivations: before.cultivations! - 1,
      harvests: before.harvests! - 1,
      farm_changes: before.farm_changes! + 1,
    });
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/cultivations/${cultivationIds[0]}`), 404, 'not-found');

    const [field] = await queryRows<{ b_id: string }>(t.database.db, sql`select b_id from cultivations where b_lu = ${cultivationIds[1]}`);
    expect((await call(t.app, user.key, 'DELETE', `/api/fields/${field!.b_id}`)).status).toBe(204);
    expect(await rowCounts(t)).toEqual({
      ...after,
      fields: after.fields! - 1,
      cultivations: after.cultivations! - 1,
      harvests: after.harvests! - 1,
      soil_analyses: after.soil_analyses! - 2,
      fertilizer_applications: after.fertilizer_applications! - 3,
      farm_changes: after.farm_changes! + 1,
    });
  });
});
