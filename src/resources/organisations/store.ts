// Organisations: created, listed, read, renamed and deleted. Changes run inside `organisationWrite`
// (access/organisation-roles.ts), which holds the organisation's row.
import { sql } from 'drizzle-orm';
import type { Principal } from '../../core/principal.js';
import { DomainError } from '../../core/domain-errors.js';
import { newId } from '../../core/secrets.js';
import { queryRows, type Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { inOneSnapshot, type PageQuery } from '../../db/paging.js';
import { rfc3339Text } from '../../db/timestamps.js';
import { ORGANISATIONS_PER_USER, organisationNotFound } from '../../access/organisation-roles.js';
import { recordOrganisationChange } from '../../access/organisation-audit.js';
import { authorizeAccountChange } from '../../access/roles.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import type { Organisation } from './schemas.js';

const organisationColumns = sql`o.organisation_id as id, o.name, m.role,
  ${rfc3339Text(sql.raw('o.created_at'))} as created_at, ${rfc3339Text(sql.raw('o.updated_at'))} as updated_at`;

/** The user is in as many organisations as one user may be: `who` says whom, in the answer's words. */
export const tooManyOrganisations = (who: 'You are' | 'They are') =>
  new DomainError('conflict', `${who} a member of ${ORGANISATIONS_PER_USER} organisations, the most one user may be in.`);

/** How many organisations the user is a member of, counted with the user's row held, so that two additions at once cannot both pass. */
export async function membershipsHeld(tx: Database, userId: string): Promise<number> {
  await tx.execute(sql`select 1 from users where user_id = ${userId} for no key update`);
  const rows = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from organisation_members where user_id = ${userId}`);
  return firstRow(rows, 'count of memberships').n;
}

/** The member has opened the organisation: from now on the member list shows their name. */
async function noteJoined(db: Database, userId: string, organisationId?: string): Promise<void> {
  const which = organisationId === undefined ? sql`` : sql`and organisation_id = ${organisationId}`;
  await db.execute(sql`update organisation_members set joined_at = now() where user_id = ${userId} and joined_at is null ${which}`);
}

async function readOrganisation(db: Database, userId: string, organisationId: string): Promise<Organisation> {
  const rows = await queryRows<Organisation>(
    db,
    sql`select ${organisationColumns} from organisations o
        join organisation_members m on m.organisation_id = o.organisation_id and m.user_id = ${userId}
        where o.organisation_id = ${organisationId}`,
  );
  const [organisation] = rows;
  if (!organisation) throw organisationNotFound();
  return organisation;
}

/** Creates the organisation with the caller as its owner (never with a key limited in any way). Run inside a transaction. */
export async function createOrganisation(tx: Database, principal: Principal, name: string): Promise<Organisation> {
  authorizeAccountChange(principal, 'create organisations');
  if ((await membershipsHeld(tx, principal.userId)) >= ORGANISATIONS_PER_USER) throw tooManyOrganisations('You are');
  const id = newId();
  await tx.execute(sql`insert into organisations (organisation_id, name) values (${id}, ${name})`);
  await tx.execute(sql`
    insert into organisation_members (organisation_id, user_id, role, joined_at) values (${id}, ${principal.userId}, 'owner', now())`);
  await recordOrganisationChange(tx, principal, id, 'create', 'organisation', id);
  return readOrganisation(tx, principal.userId, id);
}

/** The organisations the user is a member of, each with the user's role, in creation order. */
export async function listOrganisations(db: Database, userId: string, page: PageQuery) {
  await noteJoined(db, userId);
  return inOneSnapshot(db, async (tx) => {
    const data = await queryRows<Organisation>(
      tx,
      sql`select ${organisationColumns} from organisation_members m
          join organisations o on o.organisation_id = m.organisation_id
          where m.user_id = ${userId}
          order by o.created_at, o.organisation_id limit ${page.limit} offset ${page.offset}`,
    );
    const rows = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from organisation_members where user_id = ${userId}`);
    return { data, total: firstRow(rows, 'count of organisations').n };
  });
}

/** The organisation as its member sees it; the caller is a member (authorised before). */
export async function getOrganisation(db: Database, userId: string, organisationId: string): Promise<Organisation> {
  await noteJoined(db, userId, organisationId);
  return readOrganisation(db, userId, organisationId);
}

export async function renameOrganisation(
  tx: Database,
  principal: Principal,
  organisationId: string,
  name: string,
  precondition?: Precondition,
): Promise<Organisation> {
  const before = await readOrganisation(tx, principal.userId, organisationId);
  await assertUnchanged('organisation', precondition, () => Promise.resolve(before));
  if (before.name === name) return before;
  await tx.execute(sql`update organisations set name = ${name} where organisation_id = ${organisationId}`);
  await recordOrganisationChange(tx, principal, organisationId, 'update', 'organisation', organisationId);
  return readOrganisation(tx, principal.userId, organisationId);
}

/**
 * Deletes the organisation, its memberships (waiting ones too), its trail and its roles on farms, never
 * a farm. Each farm's own trail records that the organisation's role ended. The farms are held first, in
 * one order, as every change of a farm's roles holds its farm.
 */
export async function deleteOrganisation(
  tx: Database,
  principal: Principal,
  organisationId: string,
  precondition?: Precondition,
): Promise<void> {
  await assertUnchanged('organisation', precondition, () => readOrganisation(tx, principal.userId, organisationId));
  const farms = await queryRows<{ b_id_farm: string }>(
    tx,
    sql`select b_id_farm from farms
        where b_id_farm in (select b_id_farm from organisation_farm_access where organisation_id = ${organisationId})
        order by b_id_farm for no key update`,
  );
  const entries = JSON.stringify(farms.map(({ b_id_farm }) => ({ audit_id: newId(), b_id_farm })));
  await tx.execute(sql`
    insert into audit_log (audit_id, b_id_farm, user_id, key_id, action, resource_type, resource_id)
    select audit_id, b_id_farm, ${principal.userId}, ${principal.keyId}, 'revoke', 'organisation access', ${organisationId}
    from json_to_recordset(${entries}::json) as entry(audit_id text, b_id_farm text)`);
  await tx.execute(sql`delete from organisations where organisation_id = ${organisationId}`);
}
