// An organisation's trail: who created or renamed it, changed its membership or shared farms with it, and when.
import { eq } from 'drizzle-orm';
import type { Principal } from '../core/principal.js';
import { newId } from '../core/secrets.js';
import type { Database } from '../db/client.js';
import { selectPage, type PageQuery } from '../db/paging.js';
import { organisationAudit } from '../db/schema.js';
import { rfc3339Text } from '../db/timestamps.js';

export type OrganisationAuditAction = (typeof organisationAudit.$inferSelect)['action'];

/** What an entry names: the organisation, a member (by address and role) or a farm shared with it (by id and role). */
export type OrganisationAuditKind = (typeof organisationAudit.$inferSelect)['resource_type'];

/** Recorded in the transaction of the change, so an entry exists exactly when the change happened. */
export async function recordOrganisationChange(
  tx: Database,
  principal: Principal,
  organisationId: string,
  action: OrganisationAuditAction,
  kind: OrganisationAuditKind,
  resourceId: string,
): Promise<void> {
  await tx.insert(organisationAudit).values({
    audit_id: newId(),
    organisation_id: organisationId,
    user_id: principal.userId,
    key_id: principal.keyId,
    action,
    resource_type: kind,
    resource_id: resourceId,
  });
}

const columns = {
  audit_id: organisationAudit.audit_id,
  user_id: organisationAudit.user_id,
  key_id: organisationAudit.key_id,
  action: organisationAudit.action,
  resource_type: organisationAudit.resource_type,
  resource_id: organisationAudit.resource_id,
  created_at: rfc3339Text(organisationAudit.created_at).as('created_at'),
};

export function listOrganisationAudit(db: Database, organisationId: string, page: PageQuery) {
  const where = eq(organisationAudit.organisation_id, organisationId);
  return selectPage(db, organisationAudit, columns, where, [organisationAudit.created_at, organisationAudit.audit_id], page);
}
