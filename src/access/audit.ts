// The audit trail: every write records who did it (user, and the key when one was used), what and when.
import { eq, sql } from 'drizzle-orm';
import type { Principal } from '../core/principal.js';
import { newId } from '../core/secrets.js';
import { statementRows, type Database } from '../db/client.js';
import { Statement } from '../db/statement.js';
import { selectPage, type PageGate } from '../db/paging.js';
import { auditLog } from '../db/schema.js';
import type { PageQuery } from '../db/paging.js';
import type { ResourceKind } from './roles.js';

export type AuditAction = (typeof auditLog.$inferSelect)['action'];

/**
 * What an entry names: a resource, a person's role on the farm (access), an organisation's (organisation
 * access), or a farm's record for one year (named by the year).
 */
export type AuditedKind = ResourceKind | 'access' | 'organisation access' | 'derogation' | 'grazing intention';

type AuditEntryValues = {
  auditId: string;
  farmId: string;
  userId: string;
  keyId: string | null;
  action: AuditAction;
  kind: AuditedKind;
  resourceId: string;
};

const recordWriteStatement = new Statement<never, AuditEntryValues>(
  'record_write',
  sql`insert into audit_log (audit_id, b_id_farm, user_id, key_id, action, resource_type, resource_id)
    values (${sql.placeholder('auditId')}, ${sql.placeholder('farmId')}, ${sql.placeholder('userId')}, ${sql.placeholder('keyId')},
      ${sql.placeholder('action')}, ${sql.placeholder('kind')}, ${sql.placeholder('resourceId')})`,
);

/** Recorded in the transaction of the write, so an entry exists exactly when the write happened. */
export async function recordWrite(
  tx: Database,
  principal: Principal,
  farmId: string,
  action: AuditAction,
  kind: AuditedKind,
  resourceId: string,
): Promise<void> {
  await statementRows(tx, recordWriteStatement, {
    auditId: newId(),
    farmId,
    userId: principal.userId,
    keyId: principal.keyId,
    action,
    kind,
    resourceId,
  });
}

const columns = {
  audit_id: auditLog.audit_id,
  user_id: auditLog.user_id,
  key_id: auditLog.key_id,
  action: auditLog.action,
  resource_type: auditLog.resource_type,
  resource_id: auditLog.resource_id,
  created_at: auditLog.created_at,
};

export async function listAudit(db: Database, farmId: string, page: PageQuery, gate?: PageGate) {
  const where = eq(auditLog.b_id_farm, farmId);
  const { data, total } = await selectPage(db, auditLog, columns, where, [auditLog.created_at, auditLog.audit_id], page, undefined, gate);
  return { data: data.map((entry) => ({ ...entry, created_at: entry.created_at.toISOString() })), total };
}
