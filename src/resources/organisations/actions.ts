// What a caller does with an organisation, their role in it checked first: the one way of both the API
// routes (routes.ts) and the web pages (page-routes.tsx).
import type { Principal } from '../../core/principal.js';
import type { Database } from '../../db/client.js';
import type { PageQuery } from '../../db/paging.js';
import type { OrganisationRole } from '../../db/schema.js';
import { authorizeInOrganisation, organisationWrite } from '../../access/organisation-roles.js';
import { listMembers, putMember, removeMember } from './members-store.js';
import { getOrganisation } from './store.js';

/** The organisation as its member sees it: 404 for anyone else. */
export async function openOrganisation(db: Database, principal: Principal, organisationId: string) {
  await authorizeInOrganisation(db, principal, organisationId, 'member', 'read it');
  return getOrganisation(db, principal.userId, organisationId);
}

/** One page of its members, addresses waiting for their sign-up among them; for its members only. */
export async function membersOf(db: Database, principal: Principal, organisationId: string, page: PageQuery) {
  await authorizeInOrganisation(db, principal, organisationId, 'member', 'read its members');
  return listMembers(db, organisationId, page);
}

/** Adds a member or changes a member's role (see putMember for who may). */
export const setMember = (db: Database, principal: Principal, organisationId: string, email: string, role: OrganisationRole) =>
  organisationWrite(db, principal, organisationId, 'member', 'manage its members', (tx, callerRole) =>
    putMember(tx, principal, callerRole, organisationId, email, role),
  );

/** Removes a member, or the caller leaves (see removeMember for who may). */
export const takeOutMember = (db: Database, principal: Principal, organisationId: string, email: string) =>
  organisationWrite(db, principal, organisationId, 'member', 'manage its members', (tx, callerRole) =>
    removeMember(tx, principal, callerRole, organisationId, email),
  );
