// The one answer to "may this principal do this action on this resource?". Every resource
// belongs to one farm; its farm and the principal's role there are resolved in one statement.
import { sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../core/principal.js';
import { queryRows, type Database } from '../db/client.js';
import { firstRow } from '../db/first-row.js';
import type { FarmRole } from '../db/schema.js';
import { DomainError, notFound } from '../core/domain-errors.js';
import { keyStillActive, settleKeyCheck } from './key-check.js';

export type Action = 'read' | 'write' | 'share';

const rolesAllowed: Record<Action, readonly FarmRole[]> = {
  read: ['owner', 'advisor', 'researcher'],
  write: ['owner', 'advisor'],
  share: ['owner'],
};

/** Each kind of resource, with the query that finds the farm it belongs to. */
const farmOf = {
  farm: (id: string) => sql`select b_id_farm from farms where b_id_farm = ${id}`,
  field: (id: string) => sql`select b_id_farm from fields where b_id = ${id}`,
  cultivation: (id: string) => sql`select f.b_id_farm from cultivations c join fields f on f.b_id = c.b_id where c.b_lu = ${id}`,
  harvest: (id: string) =>
    sql`select f.b_id_farm from harvests h join cultivations c on c.b_lu = h.b_lu join fields f on f.b_id = c.b_id where h.b_id_harvesting = ${id}`,
  'soil analysis': (id: string) => sql`select f.b_id_farm from soil_analyses s join fields f on f.b_id = s.b_id where s.a_id = ${id}`,
  fertilizer: (id: string) => sql`select b_id_farm from farm_fertilizers where p_id = ${id}`,
  'fertilizer application': (id: string) =>
    sql`select f.b_id_farm from fertilizer_applications a join fields f on f.b_id = a.b_id where a.p_app_id = ${id}`,
  'organic certification': (id: string) => sql`select b_id_farm from organic_certifications where b_id_organic = ${id}`,
} satisfies Record<string, (id: string) => SQL>;

export type ResourceKind = keyof typeof farmOf;

/**
 * No role: 404, the same as a resource that does not exist, so identifiers cannot
 * be probed. A role that may read but not do `action`: 403.
 */
export function assertAllowed(role: FarmRole | null, action: Action, kind: ResourceKind): asserts role is FarmRole {
  if (role === null) throw notFound(`The ${kind} does not exist.`);
  if (!rolesAllowed[action].includes(role)) {
    const verb = action === 'share' ? 'manage access to' : 'change';
    throw new DomainError('forbidden', `Your role on this farm (${role}) does not allow you to ${verb} this ${kind}.`);
  }
}

/** A query of the farm the resource belongs to, when the principal's role there allows `action`; of no row otherwise. */
export const allowedFarm = (principal: Principal, kind: ResourceKind, id: string, action: Action): SQL =>
  sql`select r.b_id_farm from (${farmOf[kind](id)}) as r
    join farm_access a on a.b_id_farm = r.b_id_farm and a.user_id = ${principal.userId}
    where a.role in (${sql.join(
      rolesAllowed[action].map((role) => sql`${role}`),
      sql`, `,
    )})`;

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
  const rows = await queryRows<{ key_active: boolean; b_id_farm: string | null; role: FarmRole | null }>(
    db,
    sql`
    select ${keyStillActive(principal)} as key_active, r.b_id_farm, a.role
    from (select 1) as one
    left join (${farmOf[kind](id)}) as r on true
    left join farm_access a on a.b_id_farm = r.b_id_farm and a.user_id = ${principal.userId}`,
  );
  // The left joins on (select 1) make one row, with nulls where there is no such resource or no role.
  const { key_active, b_id_farm, role } = firstRow(rows, 'authorization');
  settleKeyCheck(principal, key_active);
  assertAllowed(role, action, kind);
  // A role is on a farm: b_id_farm is null only with no role, refused above.
  if (b_id_farm === null) throw notFound(`The ${kind} does not exist.`);
  return { farmId: b_id_farm, role };
}

/** Whether `role` may do `action`, without throwing. */
export const roleAllows = (role: FarmRole, action: Action): boolean => rolesAllowed[action].includes(role);
