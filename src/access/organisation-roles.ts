// Who may do what in an organisation. Its members read it; admins rename it, manage admins and members and
// read its trail; owners also manage owners and delete it. A non-member is told nothing: 404.
import { sql } from 'drizzle-orm';
import type { Principal } from '../core/principal.js';
import { queryRows, type Database } from '../db/client.js';
import { firstRow } from '../db/first-row.js';
import type { OrganisationRole } from '../db/schema.js';
import { DomainError, notFound } from '../core/domain-errors.js';
import { keyStillActive, settleKeyCheck } from './key-check.js';
import { authorizeAccountChange } from './roles.js';

/** The least organisation role each thing needs. */
const rank: Record<OrganisationRole, number> = { owner: 0, admin: 1, member: 2 };

/** Whether `role` is at least `least`. */
export const holds = (role: OrganisationRole, least: OrganisationRole): boolean => rank[role] <= rank[least];

export const organisationNotFound = () => notFound('The organisation does not exist.');

/** `least` is the role the caller must hold: 403 for a member below it. */
export function assertHolds(role: OrganisationRole, least: OrganisationRole, what: string): void {
  if (!holds(role, least)) throw new DomainError('forbidden', `Your role in this organisation (${role}) does not allow you to ${what}.`);
}

/**
 * The caller's role in the organisation, with the response of the key re-check in the same statement:
 * 404 unless a member, 403 below `least`.
 */
export async function authorizeInOrganisation(
  db: Database,
  principal: Principal,
  organisationId: string,
  least: OrganisationRole,
  what: string,
): Promise<OrganisationRole> {
  const rows = await queryRows<{ key_active: boolean; role: OrganisationRole | null }>(
    db,
    sql`select ${keyStillActive(principal)} as key_active,
          (select role from organisation_members where organisation_id = ${organisationId} and user_id = ${principal.userId}) as role`,
  );
  const { key_active, role } = firstRow(rows, 'organisation authorization');
  settleKeyCheck(principal, key_active);
  if (role === null) throw organisationNotFound();
  assertHolds(role, least, what);
  return role;
}

/** Organisations a user may be a member of (their own and those they were added to, waiting ones included at sign-up). */
export const ORGANISATIONS_PER_USER = 100;
/** Members of one organisation, addresses waiting for their sign-up included. */
export const MEMBERS_PER_ORGANISATION = 1000;

/**
 * A change to an organisation (its name, its members, its deletion): the caller's role, then the
 * organisation's row held to the commit, then the role again under the lock, so that changes to one
 * organisation take turns (the last owner and the member limit are checked against what is committed)
 * and a role taken away while this request waited counts. The lock is taken before any user's row
 * or farm's row a change touches, in that order everywhere.
 */
export function organisationWrite<T>(
  db: Database,
  principal: Principal,
  organisationId: string,
  least: OrganisationRole,
  what: string,
  work: (tx: Database, role: OrganisationRole) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await authorizeInOrganisation(tx, principal, organisationId, least, what);
    // A member added, or a farm's organisation gaining one, reaches every farm shared with it: no key limited in any way may.
    authorizeAccountChange(principal, `change an organisation (${what})`);
    await tx.execute(sql`select 1 from organisations where organisation_id = ${organisationId} for no key update`);
    return work(tx, await authorizeInOrganisation(tx, principal, organisationId, least, what));
  });
}
