// Farm queries. Reads fold the principal's key check and role into the same statement.
import { eq, sql } from 'drizzle-orm';
import { keyCheckNeeded, scopeReaches, type Principal } from '../../core/principal.js';
import type { AccessMemory, AccessVersion } from '../../access/access-memory.js';
import { settleKeyCheck, statementsCheckingKey, type KeyCheckValues } from '../../access/key-check.js';
import type { Database, DatabaseHandle } from '../../db/client.js';
import { Statement } from '../../db/statement.js';
import { firstRow } from '../../db/first-row.js';
import { recordColumns } from '../../db/records.js';
import { rfc3339Text } from '../../db/timestamps.js';
import { farms, type FarmRole } from '../../db/schema.js';
import { newId } from '../../core/secrets.js';
import { notFound } from '../../core/domain-errors.js';
import type { PageQuery } from '../../db/paging.js';
import { deleteFarmCascade } from '../cascade.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import type { Farm, FarmCreate, FarmUpdate } from './schemas.js';

// access_version is the server's own: no client sees it.
const farmColumns = recordColumns(farms, 'access_version');

// The hot reads below are SQL text of their own, on the farms row as `f`: the same times, formatted the same way.
const createdAtText = rfc3339Text(sql.raw('f.created_at'));
const updatedAtText = rfc3339Text(sql.raw('f.updated_at'));
const farmTimesText = sql`${createdAtText} as created_at, ${updatedAtText} as updated_at`;

interface FarmRead extends KeyCheckValues {
  farmId: string;
  userId: string;
}

const readFarmStatement = statementsCheckingKey<{ role: FarmRole; version: AccessVersion } & Farm, FarmRead>(
  'read_farm',
  (keyActive) => sql`
    select ${keyActive} as key_active, a.role, f.access_version::text as version,
           f.b_id_farm, f.b_name_farm, f.b_businessid_farm, f.b_address_farm, f.b_postalcode_farm, ${farmTimesText}
    from farm_access a join farms f on f.b_id_farm = a.b_id_farm
    where a.b_id_farm = ${sql.placeholder('farmId')} and a.user_id = ${sql.placeholder('userId')}`,
);

/** The farm's own fields of a row that carries more (spelt out: an object rest copy costs more on this path). */
const farmFieldsOf = (row: Farm): Farm => ({
  b_id_farm: row.b_id_farm,
  b_name_farm: row.b_name_farm,
  b_businessid_farm: row.b_businessid_farm,
  b_address_farm: row.b_address_farm,
  b_postalcode_farm: row.b_postalcode_farm,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

// The farm's own row says whether a remembered role still holds: the one-query read, with one more
// condition on a column of the row it reads anyway.
const farmAtVersionStatement = new Statement<Farm, { farmId: string; version: AccessVersion }>(
  'farm_at_version',
  sql`select f.b_id_farm, f.b_name_farm, f.b_businessid_farm, f.b_address_farm, f.b_postalcode_farm, ${farmTimesText}
      from farms f
      where b_id_farm = ${sql.placeholder('farmId')} and access_version = ${sql.placeholder('version')}`,
);

interface FarmReadDeps {
  database: DatabaseHandle;
  access: AccessMemory;
}

/**
 * The farm if the principal may read it, else undefined. A role remembered with the farm's access
 * version spares the join and the key check (see access/access-memory.ts). Without a row the key is not
 * re-checked here: the authentication middleware does that before a 404 leaves, so a revoked key still
 * gets its 401.
 */
export async function findReadableFarm(
  { database, access }: FarmReadDeps,
  principal: Principal,
  farmId: string,
): Promise<Farm | undefined> {
  const { keyId } = principal;
  // Outside the key's farms the key holds no role, remembered or not.
  if (!scopeReaches(principal.scope, farmId)) return undefined;
  const known = keyId === null ? undefined : access.role(farmId, keyId);
  if (known !== undefined) {
    // A row: no change of the role or of the key has committed since a statement found both at this version.
    const [farm] = await database.rows(farmAtVersionStatement, { farmId, version: known.version });
    if (farm) {
      principal.verified = true;
      return farm;
    }
  }
  // The farm and the principal's role on it, with the response of the key re-check; no row without a role.
  const checksKey = keyCheckNeeded(principal);
  const [row] = await database.rows(readFarmStatement(principal), { farmId, userId: principal.userId, keyId });
  if (!row) return undefined;
  settleKeyCheck(principal, row.key_active);
  // Only a statement that checked the key itself read a version at which the key was active (a key
  // looked up earlier in this request may have been revoked since, moving the version this statement read).
  if (checksKey && keyId !== null) access.rememberRole(farmId, keyId, { role: row.role, version: row.version });
  return farmFieldsOf(row);
}

interface FarmPageValues extends KeyCheckValues {
  userId: string;
  limit: number;
  offset: number;
}

// The page is cut from the user's index entries first and only then joined to the farms, a plan that
// stays one short index range scan without table statistics (PGlite runs no autovacuum/analyze).
const listFarmsStatement = statementsCheckingKey<{ total: number; data: Farm[] }, FarmPageValues>(
  'list_farms',
  (keyActive) => sql`
    select ${keyActive} as key_active,
      (select farm_count from users where user_id = ${sql.placeholder('userId')}) as total,
      coalesce((
        select json_agg(
          json_build_object('b_id_farm', f.b_id_farm, 'b_name_farm', f.b_name_farm, 'b_businessid_farm', f.b_businessid_farm,
                            'b_address_farm', f.b_address_farm, 'b_postalcode_farm', f.b_postalcode_farm,
                            'created_at', ${createdAtText}, 'updated_at', ${updatedAtText})
          order by a.farm_created_at, a.b_id_farm)
        from (
          select b_id_farm, farm_created_at from farm_access where user_id = ${sql.placeholder('userId')}
          order by farm_created_at, b_id_farm limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}
        ) a
        cross join lateral (select * from farms where farms.b_id_farm = a.b_id_farm) f
      ), '[]'::json) as data`,
);

interface KeyFarmPageValues extends FarmPageValues {
  farms: readonly string[];
}

// A key limited to some farms (at most 100) lists those of them its user still has a role on, counted.
const listKeyFarmsStatement = statementsCheckingKey<{ total: number; data: Farm[] }, KeyFarmPageValues>(
  'list_key_farms',
  (keyActive) => sql`
    with reached as (
      select b_id_farm, farm_created_at from farm_access
      where user_id = ${sql.placeholder('userId')} and b_id_farm = any(${sql.placeholder('farms')}::text[])
    )
    select ${keyActive} as key_active,
      (select count(*)::int from reached) as total,
      coalesce((
        select json_agg(
          json_build_object('b_id_farm', f.b_id_farm, 'b_name_farm', f.b_name_farm, 'b_businessid_farm', f.b_businessid_farm,
                            'b_address_farm', f.b_address_farm, 'b_postalcode_farm', f.b_postalcode_farm,
                            'created_at', ${createdAtText}, 'updated_at', ${updatedAtText})
          order by a.farm_created_at, a.b_id_farm)
        from (
          select b_id_farm, farm_created_at from reached
          order by farm_created_at, b_id_farm limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}
        ) a
        cross join lateral (select * from farms where farms.b_id_farm = a.b_id_farm) f
      ), '[]'::json) as data`,
);

/**
 * One page of the farms the principal reaches, in creation order, with the total, in one statement:
 * those the user has a role on (the total kept in users.farm_count), or, for a key limited to some
 * farms, those of them the user still has a role on.
 */
export async function listFarms(database: DatabaseHandle, principal: Principal, page: PageQuery) {
  const values = { userId: principal.userId, keyId: principal.keyId, limit: page.limit, offset: page.offset };
  const { farms } = principal.scope;
  const rows =
    farms === null
      ? await database.rows(listFarmsStatement(principal), values)
      : await database.rows(listKeyFarmsStatement(principal), { ...values, farms });
  const row = firstRow(rows, 'list_farms');
  return { keyActive: row.key_active, total: row.total, data: row.data };
}

/** Creates the farm and makes its creator the owner. Run inside a transaction. */
export async function createFarm(tx: Database, ownerId: string, input: FarmCreate): Promise<Farm> {
  const farm = firstRow(
    await tx
      .insert(farms)
      .values({ ...input, b_id_farm: newId() })
      .returning(farmColumns),
    'insert into farms',
  );
  await tx.execute(sql`
    insert into farm_access (b_id_farm, user_id, role, farm_created_at)
    select b_id_farm, ${ownerId}, 'owner', created_at from farms where b_id_farm = ${farm.b_id_farm}`);
  return farm;
}

/** The farm as the API answers it, read in `tx`. */
async function readFarm(tx: Database, farmId: string): Promise<Farm> {
  const [farm] = await tx.select(farmColumns).from(farms).where(eq(farms.b_id_farm, farmId));
  if (!farm) throw notFound('The farm does not exist.');
  return farm;
}

/** Run inside the farm's audited write, so that `precondition` is checked against the farm as the update finds it. */
export async function updateFarm(tx: Database, farmId: string, changes: FarmUpdate, precondition?: Precondition): Promise<Farm> {
  await assertUnchanged('farm', precondition, () => readFarm(tx, farmId));
  if (Object.keys(changes).length === 0) return readFarm(tx, farmId);
  return firstRow(await tx.update(farms).set(changes).where(eq(farms.b_id_farm, farmId)).returning(farmColumns), 'update of farms');
}

/** The farm and everything on it, if `precondition` holds. Run inside the farm's audited write. */
export async function deleteFarm(tx: Database, farmId: string, precondition?: Precondition): Promise<void> {
  await assertUnchanged('farm', precondition, () => readFarm(tx, farmId));
  await deleteFarmCascade(tx, farmId);
}
