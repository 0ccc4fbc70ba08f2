// Every change goes through here: the access check, the change and its audit entry, in one transaction
// that holds the farm's row from the check to the commit.
import { sql } from 'drizzle-orm';
import type { Principal } from '../core/principal.js';
import { statementRows, type Database } from '../db/client.js';
import { recordWrite, type AuditAction, type AuditedKind } from './audit.js';
import { settleKeyCheck, statementsCheckingKey, type KeyCheckValues } from './key-check.js';
import { allowedFarm, authorize, type Action, type ResourceKind } from './roles.js';

/** The resource the write acts on, and what the principal must be allowed to do to it. */
interface WriteTarget {
  kind: ResourceKind;
  id: string;
  /** Defaults to write; sharing needs share. */
  action?: Action;
}

interface Change<T> {
  /**
   * What the write did, known up front or read from the result; null when it changed nothing (a PUT of
   * what is stored already), which records no entry.
   */
  action: AuditAction | ((result: T) => AuditAction | null);
  kind: AuditedKind;
  /** The resource changed: known up front, or read from the result (a created resource). */
  id: string | ((result: T) => string);
}

/**
 * Writes to one farm take turns: each holds the farm's row until it commits. So a read-modify-write
 * never works from a row another write is changing, and nothing is added under a record while a
 * delete of it (or of anything above it) is running. The same lock mode as the access-version
 * triggers take, so a change of access also waits for the writes in flight.
 */
async function holdFarm(tx: Database, farmId: string): Promise<void> {
  await tx.execute(sql`select 1 from farms where b_id_farm = ${farmId} for no key update`);
}

/** The statements of holdFarmIfAllowed, one pair for each kind of resource and action (key-check.ts), made when first asked. */
const holdStatements = new Map<string, ReturnType<typeof holdStatementsOf>>();

const holdStatementsOf = (name: string, kind: ResourceKind, action: Action) =>
  statementsCheckingKey<{ held: number }, KeyCheckValues & { id: string; userId: string }>(
    name,
    (keyActive) =>
      sql`select ${keyActive} as key_active, 1 as held from farms where b_id_farm = (${allowedFarm(kind, action)}) for no key update`,
  );

function holdStatement(principal: Principal, kind: ResourceKind, action: Action) {
  const name = `hold_${kind.replaceAll(' ', '_')}_${action}`;
  let statements = holdStatements.get(name);
  if (statements === undefined) {
    statements = holdStatementsOf(name, kind, action);
    holdStatements.set(name, statements);
  }
  return statements(principal);
}

/**
 * Holds the farm of the target as holdFarm does, in the same statement that finds it, but only when the
 * principal's role there allows the write: a caller without the role holds nothing. Whether it did. A key
 * remembered as a hint (remembered-key-routes.ts) is checked by the same statement: inactive, the write
 * ends with 401 before it changed anything; without a row, the check under the lock settles it.
 */
async function holdFarmIfAllowed(tx: Database, principal: Principal, target: WriteTarget, action: Action): Promise<boolean> {
  const [row] = await statementRows(tx, holdStatement(principal, target.kind, action), {
    id: target.id,
    userId: principal.userId,
    keyId: principal.keyId,
  });
  if (row === undefined) return false;
  settleKeyCheck(principal, row.key_active);
  return true;
}

/** The last step of the transaction, after the change and its audit entry: its result is the write's. */
type BeforeCommit<T, R> = (tx: Database, result: T) => Promise<R>;

/** What every audited write is given: who, on what, the change itself, and how it is audited. */
type WriteArgs<T> = [
  db: Database,
  principal: Principal,
  target: WriteTarget,
  perform: (tx: Database, farmId: string) => Promise<T>,
  change: Change<T>,
];

export function auditedWrite<T>(...args: WriteArgs<T>): Promise<T>;
export function auditedWrite<T, R>(...args: [...WriteArgs<T>, beforeCommit: BeforeCommit<T, R>]): Promise<R>;
export function auditedWrite<T, R>(
  ...[db, principal, target, perform, change, beforeCommit]: [...WriteArgs<T>, beforeCommit?: BeforeCommit<T, R>]
): Promise<T | R> {
  const action = target.action ?? 'write';
  return db.transaction(async (tx) => {
    const held = await holdFarmIfAllowed(tx, principal, target, action);
    // Asked under the lock: this statement sees every write committed before it, so a record deleted
    // (or a role taken away) while this request waited is 404 (or 403) now. Without the lock, it refuses.
    let farmId = await authorize(tx, principal, target.kind, target.id, action);
    if (!held) {
      // The role was granted between the two statements: held now, and asked again under the lock.
      await holdFarm(tx, farmId);
      farmId = await authorize(tx, principal, target.kind, target.id, action);
    }
    const result = await perform(tx, farmId);
    const done = typeof change.action === 'string' ? change.action : change.action(result);
    if (done !== null) {
      const id = typeof change.id === 'string' ? change.id : change.id(result);
      await recordWrite(tx, principal, farmId, done, change.kind, id);
    }
    return beforeCommit === undefined ? result : beforeCommit(tx, result);
  });
}
