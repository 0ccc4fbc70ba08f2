// An organisation's members: added by e-mail address, roles changed, removed; an address nobody has signed up
// with waits for that sign-up, answered and listed like any other. Run inside `organisationWrite`, which holds
// the organisation's row, so the last owner and the member limit are checked against what is committed.
import { sql } from 'drizzle-orm';
import type { Principal } from '../../core/principal.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import { queryRows, type Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { inOneSnapshot, type PageQuery } from '../../db/paging.js';
import { PENDING_DAYS, type OrganisationRole } from '../../db/schema.js';
import { rfc3339Text } from '../../db/timestamps.js';
import { findUserByEmail } from '../../accounts/users-store.js';
import { assertHolds, MEMBERS_PER_ORGANISATION, ORGANISATIONS_PER_USER } from '../../access/organisation-roles.js';
import { recordOrganisationChange } from '../../access/organisation-audit.js';
import { membershipsHeld, tooManyOrganisations } from './store.js';
import type { Member } from './schemas.js';

/** Members and waiting addresses in one list, in the order they were added (then by address). */
const entries = (organisationId: string) => sql`
  select u.email, case when m.joined_at is not null then u.name end as name, m.role, m.created_at, lower(u.email) as address
  from organisation_members m join users u on u.user_id = m.user_id
  where m.organisation_id = ${organisationId}
  union all
  select p.email, null, p.role, p.created_at, lower(p.email)
  from pending_organisation_members p
  where p.organisation_id = ${organisationId} and p.expires_at > now()`;

export function listMembers(db: Database, organisationId: string, page: PageQuery) {
  return inOneSnapshot(db, async (tx) => {
    const data = await queryRows<Member>(
      tx,
      sql`select email, name, role, ${rfc3339Text(sql.raw('created_at'))} as created_at from (${entries(organisationId)}) e
          order by e.created_at, e.address limit ${page.limit} offset ${page.offset}`,
    );
    const rows = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from (${entries(organisationId)}) e`);
    return { data, total: firstRow(rows, 'count of members').n };
  });
}

/** What may change a role: owners are managed by owners, admins and members by admins too. */
function assertMayManage(callerRole: OrganisationRole, ...roles: OrganisationRole[]): void {
  const least = roles.includes('owner') ? 'owner' : 'admin';
  assertHolds(callerRole, least, least === 'owner' ? 'manage its owners' : 'manage its members');
}

const lastOwner = () => new DomainError('conflict', 'An organisation keeps at least one owner: make someone else owner first.');

async function ownersBesides(tx: Database, organisationId: string, userId: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from organisation_members where organisation_id = ${organisationId} and role = 'owner' and user_id <> ${userId}`,
  );
  return firstRow(rows, 'count of owners').n;
}

async function assertRoomForOne(tx: Database, organisationId: string): Promise<void> {
  const rows = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from (${entries(organisationId)}) e`);
  if (firstRow(rows, 'count of members').n >= MEMBERS_PER_ORGANISATION)
    throw new DomainError('conflict', `An organisation has at most ${MEMBERS_PER_ORGANISATION} members: remove one first.`);
}

type MemberRow = {
  role: OrganisationRole;
  name: string | null;
  created_at: string;
};

const memberOf = (tx: Database, organisationId: string, userId: string) =>
  queryRows<MemberRow>(
    tx,
    sql`select role, case when joined_at is not null then (select name from users where user_id = ${userId}) end as name,
               ${rfc3339Text(sql.raw('created_at'))} as created_at
        from organisation_members where organisation_id = ${organisationId} and user_id = ${userId}`,
  );

const pendingOf = (tx: Database, organisationId: string, email: string) =>
  queryRows<MemberRow>(
    tx,
    sql`select role, null as name, ${rfc3339Text(sql.raw('created_at'))} as created_at from pending_organisation_members
        where organisation_id = ${organisationId} and lower(email) = lower(${email}) and expires_at > now()`,
  );

/**
 * Adds a member or changes a member's role; returns the entry. An address nobody has signed up with is
 * kept, answered and listed the same way, and becomes a membership at its sign-up (PENDING_DAYS).
 */
export async function putMember(
  tx: Database,
  principal: Principal,
  callerRole: OrganisationRole,
  organisationId: string,
  email: string,
  role: OrganisationRole,
): Promise<Member> {
  const user = await findUserByEmail(tx, email);
  const [current] = user ? await memberOf(tx, organisationId, user.user_id) : await pendingOf(tx, organisationId, email);
  assertMayManage(callerRole, role, ...(current ? [current.role] : []));
  if (current?.role === role) return { email, name: current.name, role, created_at: current.created_at };
  if (current === undefined) await assertRoomForOne(tx, organisationId);
  if (user) {
    if (current?.role === 'owner' && (await ownersBesides(tx, organisationId, user.user_id)) === 0) throw lastOwner();
    if (current === undefined && (await membershipsHeld(tx, user.user_id)) >= ORGANISATIONS_PER_USER)
      throw tooManyOrganisations('They are');
    await tx.execute(sql`
      insert into organisation_members (organisation_id, user_id, role) values (${organisationId}, ${user.user_id}, ${role})
      on conflict (organisation_id, user_id) do update set role = excluded.role`);
  } else {
    await tx.execute(sql`delete from pending_organisation_members
                         where organisation_id = ${organisationId} and lower(email) = lower(${email}) and expires_at <= now()`);
    await tx.execute(sql`
      insert into pending_organisation_members (organisation_id, email, role, expires_at)
      values (${organisationId}, ${email}, ${role}, now() + make_interval(days => ${PENDING_DAYS}))
      on conflict (organisation_id, lower(email)) do update set role = excluded.role`);
  }
  await recordOrganisationChange(tx, principal, organisationId, 'grant', 'member', `${email}:${role}`);
  const [entry] = user ? await memberOf(tx, organisationId, user.user_id) : await pendingOf(tx, organisationId, email);
  return { email, name: entry?.name ?? null, role, created_at: entry?.created_at ?? '' };
}

/**
 * Removes a member (or an address waiting for its sign-up). Anyone may remove themselves; removing or
 * demoting the last owner is 409.
 */
export async function removeMember(
  tx: Database,
  principal: Principal,
  callerRole: OrganisationRole,
  organisationId: string,
  email: string,
): Promise<void> {
  const user = await findUserByEmail(tx, email);
  const self = user?.user_id === principal.userId;
  if (!self) assertHolds(callerRole, 'admin', 'manage its members');
  const [current] = user ? await memberOf(tx, organisationId, user.user_id) : await pendingOf(tx, organisationId, email);
  if (current === undefined) throw notFound(`${email} is not a member of this organisation.`);
  if (!self) assertMayManage(callerRole, current.role);
  if (user) {
    if (current.role === 'owner' && (await ownersBesides(tx, organisationId, user.user_id)) === 0) throw lastOwner();
    await tx.execute(sql`delete from organisation_members where organisation_id = ${organisationId} and user_id = ${user.user_id}`);
  } else {
    await tx.execute(
      sql`delete from pending_organisation_members where organisation_id = ${organisationId} and lower(email) = lower(${email})`,
    );
  }
  await recordOrganisationChange(tx, principal, organisationId, 'revoke', 'member', email);
}
