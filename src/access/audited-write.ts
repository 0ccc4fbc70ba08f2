// Every change goes through here: the access check, the change and its audit entry, in one transaction.
import type { Principal } from '../accounts/principal.js';
import type { Database } from '../db/client.js';
import { recordWrite, type AuditAction } from './audit.js';
import { authorize, type Action, type ResourceKind } from './roles.js';

interface Check {
  kind: ResourceKind;
  id: string;
  /** Defaults to write; sharing needs share. */
  action?: Action;
}

interface Change<T> {
  action: AuditAction;
  kind: ResourceKind | 'access';
  /** The resource changed: known up front, or read from the result (a created resource). */
  id: string | ((result: T) => string);
}

export function auditedWrite<T>(
  db: Database,
  principal: Principal,
  check: Check,
  perform: (tx: Database, farmId: string) => Promise<T>,
  change: Change<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const farmId = await authorize(tx, principal, check.kind, check.id, check.action ?? 'write');
    const result = await perform(tx, farmId);
    const id = typeof change.id === 'string' ? change.id : change.id(result);
    await recordWrite(tx, principal, farmId, change.action, change.kind, id);
    return result;
  });
}
