// Roles on a farm: people's (an address nobody has signed up with waits for that sign-up) and organisations'.
// A farm always keeps at least one owner, a person. Run inside the farm's audited write.
import { and, eq, sql } from 'drizzle-orm';
import type { Principal } from '../../core/principal.js';
import { queryRows, type Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { inOneSnapshot, type PageQuery } from '../../db/paging.js';
import { farmAccess, PENDING_DAYS, type FarmRole, type OrganisationFarmRole } from '../../db/schema.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import { findUserByEmail } from '../../accounts/users-store.js';
import { organisationNotFound } from '../../access/organisation-roles.js';
import { recordOrganisationChange } from '../../access/organisation-audit.js';
import type { AccessEntry } from './schemas.js';

/** People with a role, addresses waiting for their sign-up and organisations, in the order they were given their role. */
const entries = (farmId: string) => sql`
  select u.email, null as organisation, null as organisation_name, a.role, a.created_at, lower(u.email) as tiebreak
  from farm_access a join users u on u.user_id = a.user_id where a.b_id_farm = ${farmId}
  union all
  select p.email, null, null, p.role, p.created_at, lower(p.email)
  from pending_farm_access p where p.b_id_farm = ${farmId} and p.expires_at > now()
  union all
  select null, o.organisation_id, g.name, o.role, o.created_at, o.organisation_id
  from organisation_farm_access o join organisations g on g.organisation_id = o.organisation_id where o.b_id_farm = ${farmId}`;

type EntryRow = { email: string | null; organisation: string | null; organisation_name: string | null; role: FarmRole };

const entryOf = ({ email, organisation, organisation_name, role }: EntryRow): AccessEntry =>
  email !== null ? { email, role } : { organisation: organisation ?? '', organisation_name: organisation_name ?? '', role };

export async function listAccess(db: Database, farmId: string, page: PageQuery) {
  return inOneSnapshot(db, async (tx) => {
    const rows = await queryRows<EntryRow>(
      tx,
      sql`select email, organisation, organisation_name, role from (${entries(farmId)}) e
          order by e.created_at, e.tiebreak limit ${page.limit} offset ${page.offset}`,
    );
    const counted = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from (${entries(farmId)}) e`);
    return { data: rows.map(entryOf), total: firstRow(counted, 'count of access').n };
  });
}

/** How many owners the farm has besides `userId`. */
async function otherOwners(tx: Database, farmId: string, userId: string): Promise<number> {
  const rows = await queryRows<Pick<typeof farmAccess.$inferSelect, 'user_id' | 'role'>>(
    tx,
    sql`select user_id, role from farm_access where b_id_farm = ${farmId}`,
  );
  return rows.filter((row) => row.role === 'owner' && row.user_id !== userId).length;
}

const lastOwner = () => new DomainError('conflict', 'A farm keeps at least one owner: make someone else owner first.');

/**
 * Grants a role, or changes one; returns the entry. An address nobody has signed up with is answered the
 * same way, and its role waits for that sign-up (PENDING_DAYS).
 */
export async function grantAccess(tx: Database, farmId: string, email: string, role: FarmRole) {
  const user = await findUserByEmail(tx, email);
  if (!user) {
    await tx.execute(
      sql`delete from pending_farm_access where b_id_farm = ${farmId} and lower(email) = lower(${email}) and expires_at <= now()`,
    );
    await tx.execute(sql`
      insert into pending_farm_access (b_id_farm, email, role, expires_at)
      values (${farmId}, ${email}, ${role}, now() + make_interval(days => ${PENDING_DAYS}))
      on conflict (b_id_farm, lower(email)) do update set role = excluded.role`);
    return { email, role };
  }
  const owners = await otherOwners(tx, farmId, user.user_id);
  const [current] = await tx
    .select({ role: farmAccess.role })
    .from(farmAccess)
    .where(and(eq(farmAccess.b_id_farm, farmId), eq(farmAccess.user_id, user.user_id)));
  if (current?.role === 'owner' && role !== 'owner' && owners === 0) throw lastOwner();
  await tx.execute(sql`
    insert into farm_access (b_id_farm, user_id, role, farm_created_at)
    select b_id_farm, ${user.user_id}, ${role}, created_at from farms where b_id_farm = ${farmId}
    on conflict (b_id_farm, user_id) do update set role = excluded.role`);
  return { email, role };
}

/** Whether `email` is the principal's own address: anyone may remove their own role. */
export async function isOwnAddress(db: Database, principal: Principal, email: string): Promise<boolean> {
  return (await findUserByEmail(db, email))?.user_id === principal.userId;
}

export async function revokeAccess(tx: Database, farmId: string, email: string): Promise<void> {
  const user = await findUserByEmail(tx, email);
  if (!user) {
    const removed = await queryRows<{ role: FarmRole }>(
      tx,
      sql`delete from pending_farm_access where b_id_farm = ${farmId} and lower(email) = lower(${email}) and expires_at > now() returning role`,
    );
    if (removed.length === 0) throw notFound(`${email} has no role on this farm.`);
    return;
  }
  const owners = await otherOwners(tx, farmId, user.user_id);
  const [removed] = await tx
    .delete(farmAccess)
    .where(and(eq(farmAccess.b_id_farm, farmId), eq(farmAccess.user_id, user.user_id)))
    .returning({ role: farmAccess.role });
  if (!removed) throw notFound(`${email} has no role on this farm.`);
  // Checked after the delete, inside the transaction: throwing rolls it back.
  if (removed.role === 'owner' && owners === 0) throw lastOwner();
}

/**
 * Shares the farm with an organisation the principal is a member of (404 otherwise), or changes its role;
 * returns the entry. Recorded in the organisation's trail too.
 */
export async function grantOrganisationAccess(tx: Database, principal: Principal, farmId: string, organisationId: string, role: FarmRole) {
  const [organisation] = await queryRows<{ name: string }>(
    tx,
    sql`select g.name from organisations g join organisation_members m on m.organisation_id = g.organisation_id and m.user_id = ${principal.userId}
        where g.organisation_id = ${organisationId}`,
  );
  if (!organisation) throw organisationNotFound();
  if (role === 'owner')
    throw new DomainError('unprocessable-entity', 'A farm’s owners are people: share it with an organisation as advisor or researcher.');
  const farmRole: OrganisationFarmRole = role;
  await tx.execute(sql`
    insert into organisation_farm_access (b_id_farm, organisation_id, role, farm_created_at)
    select b_id_farm, ${organisationId}, ${farmRole}, created_at from farms where b_id_farm = ${farmId}
    on conflict (b_id_farm, organisation_id) do update set role = excluded.role`);
  await recordOrganisationChange(tx, principal, organisationId, 'grant', 'farm', `${farmId}:${farmRole}`);
  return { organisation: organisationId, organisation_name: organisation.name, role: farmRole };
}

export async function revokeOrganisationAccess(tx: Database, principal: Principal, farmId: string, organisationId: string): Promise<void> {
  const removed = await queryRows<{ role: OrganisationFarmRole }>(
    tx,
    sql`delete from organisation_farm_access where b_id_farm = ${farmId} and organisation_id = ${organisationId} returning role`,
  );
  if (removed.length === 0) throw notFound('The farm is not shared with this organisation.');
  await recordOrganisationChange(tx, principal, organisationId, 'revoke', 'farm', farmId);
}
