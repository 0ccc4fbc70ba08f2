// Farm queries. Reads fold the principal's key check and role into the same statement.
import { eq, sql, type SQL } from 'drizzle-orm';
import { keyCheckNeeded, scopeReaches, type Principal } from '../../core/principal.js';
import type { AccessMemory, AccessVersion } from '../../access/access-memory.js';
import { effectiveRole, roleOfRank, roleRank } from '../../access/roles.js';
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
import type { Farm, FarmCreate, FarmListItem, FarmUpdate } from './schemas.js';

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

const readFarmStatement = statementsCheckingKey<
  { role: FarmRole | null; version: AccessVersion; user_version: AccessVersion } & Farm,
  FarmRead
>(
  'read_farm',
  (keyActive) => sql`
    select ${keyActive} as key_active, ${effectiveRole(sql.raw('f.b_id_farm'), sql.placeholder('userId'))} as role,
           f.access_version::text as version, u.access_version::text as user_version,
           f.b_id_farm, f.b_name_farm, f.b_businessid_farm, f.b_address_farm, f.b_postalcode_farm, ${farmTimesText}
    from farms f join users u on u.user_id = ${sql.placeholder('userId')}
    where f.b_id_farm = ${sql.placeholder('farmId')}`,
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

// The farm's own row and the user's say whether a remembered role still holds: the one-query read, with a
// condition on a column of the row it reads anyway and one on the user's row, by its primary key.
const farmAtVersionStatement = new Statement<Farm, { farmId: string; version: AccessVersion; userId: string; userVersion: AccessVersion }>(
  'farm_at_version',
  sql`select f.b_id_farm, f.b_name_farm, f.b_businessid_farm, f.b_address_farm, f.b_postalcode_farm, ${farmTimesText}
      from farms f
      where f.b_id_farm = ${sql.placeholder('farmId')} and f.access_version = ${sql.placeholder('version')}
        and exists (select 1 from users u where u.user_id = ${sql.placeholder('userId')} and u.access_version = ${sql.placeholder('userVersion')})`,
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
    // A row: no change of a role, a membership or the key has committed since a statement found all at these versions.
    const [farm] = await database.rows(farmAtVersionStatement, {
      farmId,
      version: known.version,
      userId: principal.userId,
      userVersion: known.userVersion,
    });
    if (farm) {
      principal.verified = true;
      return farm;
    }
  }
  // The farm and the principal's effective role on it, with the response of the key re-check.
  const checksKey = keyCheckNeeded(principal);
  const [row] = await database.rows(readFarmStatement(principal), { farmId, userId: principal.userId, keyId });
  if (!row) return undefined;
  settleKeyCheck(principal, row.key_active);
  if (row.role === null) return undefined;
  // Only a statement that checked the key itself read a version at which the key was active (a key
  // looked up earlier in this request may have been revoked since, moving the version this statement read).
  if (checksKey && keyId !== null)
    access.rememberRole(farmId, keyId, { role: row.role, version: row.version, userVersion: row.user_version });
  return farmFieldsOf(row);
}

interface FarmPageValues extends KeyCheckValues {
  userId: string;
  limit: number;
  offset: number;
}

const farmItem = sql`json_build_object('b_id_farm', f.b_id_farm, 'b_name_farm', f.b_name_farm, 'b_businessid_farm', f.b_businessid_farm,
  'b_address_farm', f.b_address_farm, 'b_postalcode_farm', f.b_postalcode_farm,
  'created_at', ${createdAtText}, 'updated_at', ${updatedAtText}, 'role', p.role)`;

/**
 * Every way the user reaches farms, each cut to the first `offset + limit` entries in list order before they
 * are merged: a farm among the first of the merged list is among the first of every way that reaches it, so
 * the page and each farm's highest role come out whole. Each way is one index range scan in list order.
 */
const reachedPage = sql`
  select b_id_farm, farm_created_at, ${roleOfRank(sql`min(rank)`)} as role from (
    (select b_id_farm, farm_created_at, ${roleRank(sql`role`)} as rank from farm_access
      where user_id = ${sql.placeholder('userId')}
      order by farm_created_at, b_id_farm limit ${sql.placeholder('limit')}::int + ${sql.placeholder('offset')}::int)
    union all
    (select o.b_id_farm, o.farm_created_at, ${roleRank(sql`o.role`)} from organisation_members m
      cross join lateral (
        select b_id_farm, farm_created_at, role from organisation_farm_access
        where organisation_id = m.organisation_id
        order by farm_created_at, b_id_farm limit ${sql.placeholder('limit')}::int + ${sql.placeholder('offset')}::int) o
      where m.user_id = ${sql.placeholder('userId')})
  ) reached
  group by b_id_farm, farm_created_at
  order by farm_created_at, b_id_farm limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`;

/**
 * How many farms the user reaches. Each way's count is an index range count; only a user who reaches farms
 * more than one way (their own roles and an organisation's, or two organisations') pays for merging them,
 * since a farm may come more than one way.
 */
const reachedCount = sql`(
  select case when ways <= 1 then own + shared else (
    select count(*)::int from (
      select b_id_farm from farm_access where user_id = ${sql.placeholder('userId')}
      union
      select o.b_id_farm from organisation_members m join organisation_farm_access o on o.organisation_id = m.organisation_id
      where m.user_id = ${sql.placeholder('userId')}) reached) end
  from (
    select own, coalesce(sum(c.n), 0)::int as shared, ((own > 0)::int + count(*) filter (where c.n > 0))::int as ways
    from (select count(*)::int as own from farm_access where user_id = ${sql.placeholder('userId')}) o
    left join organisation_members m on m.user_id = ${sql.placeholder('userId')}
    left join lateral (select count(*)::int as n from organisation_farm_access s where s.organisation_id = m.organisation_id) c on true
    group by own) counts)`;

const pageOfFarms = (page: SQL) => sql`coalesce((
  select json_agg(${farmItem} order by p.farm_created_at, p.b_id_farm)
  from (${page}) p cross join lateral (select * from farms where farms.b_id_farm = p.b_id_farm) f
), '[]'::json)`;

const listFarmsStatement = statementsCheckingKey<{ total: number; data: FarmListItem[] }, FarmPageValues>(
  'list_farms',
  (keyActive) => sql`select ${keyActive} as key_active, ${reachedCount} as total, ${pageOfFarms(reachedPage)} as data`,
);

const isMember = sql`exists (select 1 from organisation_members
  where organisation_id = ${sql.placeholder('organisationId')} and user_id = ${sql.placeholder('userId')})`;

// An organisation's farms: the member check, the page and the total in the one statement.
const organisationFarmsStatement = statementsCheckingKey<
  { member: boolean; total: number; data: FarmListItem[] },
  FarmPageValues & { organisationId: string }
>(
  'list_organisation_farms',
  (keyActive) => sql`
    select ${keyActive} as key_active, ${isMember} as member,
      (select count(*)::int from organisation_farm_access where organisation_id = ${sql.placeholder('organisationId')}) as total,
      ${pageOfFarms(sql`
        select b_id_farm, farm_created_at, ${effectiveRole(sql.raw('o.b_id_farm'), sql.placeholder('userId'))} as role
        from organisation_farm_access o
        where organisation_id = ${sql.placeholder('organisationId')}
        order by farm_created_at, b_id_farm limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`)} as data`,
);

interface KeyFarmPageValues extends FarmPageValues {
  farms: readonly string[];
}

// A key limited to some farms (at most 100) lists those of them the user reaches still, counted: a few rows by primary key.
const reachedOfKey = (reached: SQL) => sql`
  with reached as (select * from (${reached}) r where r.role is not null)
  select (select count(*)::int from reached) as total,
    ${pageOfFarms(sql`select * from reached order by farm_created_at, b_id_farm limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`)} as data`;

const listKeyFarmsStatement = statementsCheckingKey<{ total: number; data: FarmListItem[] }, KeyFarmPageValues>(
  'list_key_farms',
  (keyActive) => sql`
    select ${keyActive} as key_active, k.* from (${reachedOfKey(sql`
      select f.b_id_farm, f.created_at as farm_created_at, ${effectiveRole(sql.raw('f.b_id_farm'), sql.placeholder('userId'))} as role
      from farms f where f.b_id_farm = any(${sql.placeholder('farms')}::text[])`)}) k`,
);

const keyOrganisationFarmsStatement = statementsCheckingKey<
  { member: boolean; total: number; data: FarmListItem[] },
  KeyFarmPageValues & { organisationId: string }
>(
  'list_key_organisation_farms',
  (keyActive) => sql`
    select ${keyActive} as key_active, ${isMember} as member, k.* from (${reachedOfKey(sql`
      select o.b_id_farm, o.farm_created_at, ${effectiveRole(sql.raw('o.b_id_farm'), sql.placeholder('userId'))} as role
      from organisation_farm_access o
      where o.organisation_id = ${sql.placeholder('organisationId')} and o.b_id_farm = any(${sql.placeholder('farms')}::text[])`)}) k`,
);

/**
 * One page of the farms the principal reaches, each once with the user's effective role, in creation order,
 * with the total, in one statement; with `organisation`, only the farms shared with that organisation (404
 * unless the user is a member). A key limited to some farms reaches only those of them: every list of
 * farms for a principal (the farm list, an organisation's portfolio) is this one.
 */
export async function listFarms(database: DatabaseHandle, principal: Principal, page: PageQuery & { organisation?: string | undefined }) {
  const values = { userId: principal.userId, keyId: principal.keyId, limit: page.limit, offset: page.offset };
  const { farms } = principal.scope;
  const { organisation } = page;
  if (organisation === undefined) {
    const rows =
      farms === null
        ? await database.rows(listFarmsStatement(principal), values)
        : await database.rows(listKeyFarmsStatement(principal), { ...values, farms });
    const row = firstRow(rows, 'list_farms');
    settleKeyCheck(principal, row.key_active);
    return { total: row.total, data: row.data };
  }
  const organisationValues = { ...values, organisationId: organisation };
  const rows =
    farms === null
      ? await database.rows(organisationFarmsStatement(principal), organisationValues)
      : await database.rows(keyOrganisationFarmsStatement(principal), { ...organisationValues, farms });
  const row = firstRow(rows, 'list_organisation_farms');
  settleKeyCheck(principal, row.key_active);
  if (!row.member) throw notFound('The organisation does not exist.');
  return { total: row.total, data: row.data };
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
