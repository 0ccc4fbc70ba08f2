// The one answer to "may this principal do this action on this resource?". Every resource
// belongs to one farm; its farm and the principal's effective role there are resolved in one statement.
// The principal's key narrows that role: outside the key's farms there is none, and a read-only key
// changes nothing.
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { isScoped, scopeReaches, type Principal } from '../core/principal.js';
import { queryRows, statementRows, type Database } from '../db/client.js';
import { firstRow } from '../db/first-row.js';
import type { FarmRole } from '../db/schema.js';
import { DomainError, notFound } from '../core/domain-errors.js';
import type { PageGate } from '../db/paging.js';
import { keyStillActive, settleKeyCheck, statementsCheckingKey, type KeyCheckValues } from './key-check.js';

/**
 * `read` and `oversee` (see who has access and the audit trail: owners only) read; the others change
 * something: `write`, `share` (manage access), `leave` (drop one's own role, which any role may).
 */
export type Action = 'read' | 'oversee' | 'write' | 'share' | 'leave';

const rolesAllowed: Record<Action, readonly FarmRole[]> = {
  read: ['owner', 'advisor', 'researcher'],
  oversee: ['owner'],
  write: ['owner', 'advisor'],
  share: ['owner'],
  leave: ['owner', 'advisor', 'researcher'],
};

const refusedVerbs: Record<Action, string> = {
  read: 'read',
  oversee: 'see the access list and audit trail of',
  write: 'change',
  share: 'manage access to',
  leave: 'leave',
};

/** Any action but a read is a change, which a read-only key may not make. */
const changes = (action: Action) => action !== 'read' && action !== 'oversee';

/** A role's rank in SQL, 1 the highest: owner > advisor > researcher. */
export const roleRank = (role: SQL) => sql`array_position(array['owner', 'advisor', 'researcher'], ${role})`;

/** The role of a rank (`roleRank`), in SQL. */
export const roleOfRank = (rank: SQL) => sql`(array['owner', 'advisor', 'researcher'])[${rank}]`;

/**
 * The user's **effective role** on the farm, as an SQL expression: the highest of their own role and the
 * roles of every organisation they are a member of; null with none. Every check and every list of farms
 * reads a role through this one definition. Its own aliases are ones no caller's query uses, so that
 * `farmId` may name a column of the caller's.
 */
export const effectiveRole = (farmId: SQL, userId: SQL | Placeholder) => sql`(
  select reached.role from (
    select own_role.role from farm_access own_role where own_role.b_id_farm = ${farmId} and own_role.user_id = ${userId}
    union all
    select shared.role from organisation_farm_access shared
      join organisation_members membership on membership.organisation_id = shared.organisation_id and membership.user_id = ${userId}
    where shared.b_id_farm = ${farmId}
  ) reached
  order by ${roleRank(sql`reached.role`)} limit 1)`;

/** Each kind of resource, with the query that finds the farm it belongs to. */
const farmOf = {
  farm: (id: Placeholder | string) => sql`select b_id_farm from farms where b_id_farm = ${id}`,
  field: (id: Placeholder | string) => sql`select b_id_farm from fields where b_id = ${id}`,
  cultivation: (id: Placeholder | string) =>
    sql`select f.b_id_farm from cultivations c join fields f on f.b_id = c.b_id where c.b_lu = ${id}`,
  harvest: (id: Placeholder | string) =>
    sql`select f.b_id_farm from harvests h join cultivations c on c.b_lu = h.b_lu join fields f on f.b_id = c.b_id where h.b_id_harvesting = ${id}`,
  'soil analysis': (id: Placeholder | string) =>
    sql`select f.b_id_farm from soil_analyses s join fields f on f.b_id = s.b_id where s.a_id = ${id}`,
  fertilizer: (id: Placeholder | string) => sql`select b_id_farm from farm_fertilizers where p_id = ${id}`,
  'fertilizer application': (id: Placeholder | string) =>
    sql`select f.b_id_farm from fertilizer_applications a join fields f on f.b_id = a.b_id where a.p_app_id = ${id}`,
  'organic certification': (id: Placeholder | string) => sql`select b_id_farm from organic_certifications where b_id_organic = ${id}`,
} satisfies Record<string, (id: Placeholder | string) => SQL>;

export type ResourceKind = keyof typeof farmOf;

/**
 * No role, or a farm outside the key's farms: 404, the same as a resource that does not exist, so
 * identifiers cannot be probed. A role that may read but not do `action`, or a change with a
 * read-only key: 403.
 */
function assertAllowed(principal: Principal, role: FarmRole | null, action: Action, kind: ResourceKind): asserts role is FarmRole {
  if (role === null) throw notFound(`The ${kind} does not exist.`);
  if (!rolesAllowed[action].includes(role)) {
    throw new DomainError('forbidden', `Your role on this farm (${role}) does not allow you to ${refusedVerbs[action]} this ${kind}.`);
  }
  if (changes(action) && principal.scope.access === 'read') {
    throw new DomainError('forbidden', `This API key is read-only: it may not change this ${kind}.`);
  }
}

/**
 * A change outside every farm (a new farm, the account's keys, …) needs a key that holds all its
 * owner's access, or the session: a key limited in any way could otherwise step out of its limits
 * (a farm-limited key making a key for every farm). 403 otherwise.
 */
export function authorizeAccountChange(principal: Principal, what: string): void {
  if (isScoped(principal.scope)) {
    throw new DomainError(
      'forbidden',
      `This API key holds only part of your access (read-only, or limited to some farms): it may not ${what}. Use a key without limits.`,
    );
  }
}

/** The roles that allow `action`, as an SQL list for `in (…)`. */
const rolesIn = (action: Action): SQL =>
  sql.join(
    rolesAllowed[action].map((role) => sql`${role}`),
    sql`, `,
  );

/** The placeholders of the statements below: the resource's id and the user's. */
const resourceId = sql.placeholder('id');
const userIdValue = sql.placeholder('userId');

/**
 * A query of the farm the resource (placeholder `id`) belongs to, when the role there of the user
 * (placeholder `userId`) allows `action`; of no row otherwise.
 */
export const allowedFarm = (kind: ResourceKind, action: Action): SQL =>
  sql`select r.b_id_farm from (${farmOf[kind](resourceId)}) as r
    join farm_access a on a.b_id_farm = r.b_id_farm and a.user_id = ${userIdValue}
    where a.role in (${rolesIn(action)})`;

type AuthorizationRow = { b_id_farm: string | null; role: FarmRole | null };

/** The authorization statement of each kind of resource, in its two forms (key-check.ts), made when first asked. */
const authorizationStatements = new Map<ResourceKind, ReturnType<typeof authorizationStatementsOf>>();

// The left join on (select 1) makes one row, with nulls where there is no such resource or no role.
const authorizationStatementsOf = (kind: ResourceKind) =>
  statementsCheckingKey<AuthorizationRow, KeyCheckValues & { id: string; userId: string }>(
    `authorize_${kind.replaceAll(' ', '_')}`,
    (keyActive) => sql`
    select ${keyActive} as key_active, r.b_id_farm, ${effectiveRole(sql`r.b_id_farm`, userIdValue)} as role
    from (select 1) as one
    left join (${farmOf[kind](resourceId)}) as r on true`,
  );

function authorizationStatement(kind: ResourceKind, principal: Principal) {
  let statements = authorizationStatements.get(kind);
  if (statements === undefined) {
    statements = authorizationStatementsOf(kind);
    authorizationStatements.set(kind, statements);
  }
  return statements(principal);
}

/** Checks the principal may do `action` on the resource and returns the farm it belongs to. */
export async function authorize(db: Database, principal: Principal, kind: ResourceKind, id: string, action: Action): Promise<string> {
  return (await authorizeWithRole(db, principal, kind, id, action)).farmId;
}

/** As `authorize`, and also the principal's role on the farm, for answers that differ by role. */
export async function authorizeWithRole(
  db: Database,
  principal: Principal,
  kind: ResourceKind,
  id: string,
  action: Action,
): Promise<{ farmId: string; role: FarmRole }> {
  const rows = await statementRows(db, authorizationStatement(kind, principal), { id, userId: principal.userId, keyId: principal.keyId });
  return settleAuthorization(principal, kind, action, firstRow(rows, 'authorization'));
}

/** The answer of an authorization statement, or of a page gate: the principal's farm and role, or the error. */
function settleAuthorization(
  principal: Principal,
  kind: ResourceKind,
  action: Action,
  { key_active, b_id_farm, role }: AuthorizationRow & { key_active: boolean },
): { farmId: string; role: FarmRole } {
  settleKeyCheck(principal, key_active);
  // A role is on a farm: b_id_farm is null only with no role.
  if (b_id_farm === null) throw notFound(`The ${kind} does not exist.`);
  const reached = scopeReaches(principal.scope, b_id_farm) ? role : null;
  assertAllowed(principal, reached, action, kind);
  return { farmId: b_id_farm, role: reached };
}

/**
 * The authorization of a list of the resource's records, folded into the statement that reads their page
 * (db/paging.ts): the same columns the authorization statement selects, and the condition that they allow
 * `action` on a farm the key reaches, so that the page's rows are read only when they do.
 */
function listGate(principal: Principal, kind: ResourceKind, id: string, action: Action): PageGate {
  const farm = sql`(${farmOf[kind](id)})`;
  const keyActive = keyStillActive(principal);
  const role = effectiveRole(farm, sql`${principal.userId}`);
  const reaches = principal.scope.farms === null ? sql`true` : sql`${farm} = any(${sql.param(principal.scope.farms)}::text[])`;
  const allowed =
    changes(action) && principal.scope.access === 'read'
      ? sql`false`
      : sql`(${keyActive} and ${role} in (${rolesIn(action)}) and ${reaches})`;
  return {
    columns: {
      gate_key_active: sql<boolean>`${keyActive}`.as('gate_key_active'),
      gate_farm: sql<string | null>`${farm}`.as('gate_farm'),
      gate_role: sql<FarmRole | null>`${role}`.as('gate_role'),
    },
    allowed,
  };
}

/**
 * A list of the resource's records that the principal may do `action` on, read by `read` through a gate
 * (`listGate`; `selectPage` takes it), then settled as `authorize` answers: from the columns the page's
 * statement read, or, when `read` took no gate, by asking now (its rows have not left yet).
 */
export async function authorizedList<T>(
  db: Database,
  principal: Principal,
  kind: ResourceKind,
  id: string,
  action: Action,
  read: (gate: PageGate) => Promise<T>,
): Promise<T> {
  const gate = listGate(principal, kind, id, action);
  const list = await read(gate);
  if (gate.row === undefined) {
    await authorize(db, principal, kind, id, action);
    return list;
  }
  const { gate_key_active, gate_farm, gate_role } = gate.row as {
    gate_key_active: boolean;
    gate_farm: string | null;
    gate_role: FarmRole | null;
  };
  settleAuthorization(principal, kind, action, { key_active: gate_key_active, b_id_farm: gate_farm, role: gate_role });
  return list;
}

/** Whether `role` may do `action`, without throwing. */
export const roleAllows = (role: FarmRole, action: Action): boolean => rolesAllowed[action].includes(role);

/** Those of `farmIds` on which the user has no effective role (so may not read), in the order given: one statement. */
export async function farmsWithoutRole(db: Database, userId: string, farmIds: readonly string[]): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select given.id from unnest(${sql.param(farmIds)}::text[]) with ordinality as given(id, n)
        where ${effectiveRole(sql`given.id`, sql`${userId}`)} is null
        order by given.n`,
  );
  return rows.map((row) => row.id);
}
