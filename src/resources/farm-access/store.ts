// Roles on a farm. A farm always keeps at least one owner.
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { countRows, inOneSnapshot } from '../../db/paging.js';
import { farmAccess, users, type FarmRole } from '../../db/schema.js';
import type { PageQuery } from '../../db/paging.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import { findUserByEmail } from '../../accounts/users-store.js';

export async function listAccess(db: Database, farmId: string, page: PageQuery) {
  const where = eq(farmAccess.b_id_farm, farmId);
  const [data, total] = await inOneSnapshot(db, (tx) =>
    Promise.all([
      tx
        .select({ email: users.email, role: farmAccess.role })
        .from(farmAccess)
        .innerJoin(users, eq(users.user_id, farmAccess.user_id))
        .where(where)
        .orderBy(farmAccess.created_at, farmAccess.user_id)
        .limit(page.limit)
        .offset(page.offset),
      countRows(tx, farmAccess, where),
    ]),
  );
  return { data, total };
}

/** How many owners the farm has besides `userId`. */
async function otherOwners(tx: Database, farmId: string, userId: string): Promise<number> {
  const rows = await queryRows<Pick<typeof farmAccess.$inferSelect, 'user_id' | 'role'>>(
    tx,
    sql`select user_id, role from farm_access where b_id_farm = ${farmId}`,
  );
  return rows.filter((row) => row.role === 'owner' && row.user_id !== userId).length;
}

async function signedUpUser(tx: Database, email: string) {
  const user = await findUserByEmail(tx, email);
  if (!user)
    throw new DomainError(
      'unprocessable-entity',
      `No user has signed up with ${email}; they must sign up before a farm can be shared with them.`,
    );
  return user;
}

const lastOwner = () => new DomainError('conflict', 'A farm keeps at least one owner: make someone else owner first.');

/** Grants a role, or changes one; returns the entry. */
export async function grantAccess(tx: Database, farmId: string, email: string, role: FarmRole) {
  const user = await signedUpUser(tx, email);
  const owners = await otherOwners(tx, farmId, user.user_id);
  const [current] = await tx
    .select({ role: farmAccess.role })
    .from(farmAccess)
    .where(and(eq(farmAccess.b_id_farm, farmId), eq(farmAccess.user_id, user.user_id)));
  if (current?.role === 'owner' && role !== 'owner' && owners === 0) throw lastOwner();
  await tx.execute(sql`
    insert into farm_access (b_id_farm, user_id, role, farm_created_at)
    select b_id_farm, ${user.user_id}, ${role}, created_at from farms where b_id_farm = ${farmId}
    on conflict (b_id_farm, user_id) do update set role = excluded.role`);
  return { email: user.email, role };
}

export async function revokeAccess(tx: Database, farmId: string, email: string): Promise<void> {
  const user = await findUserByEmail(tx, email);
  const owners = user ? await otherOwners(tx, farmId, user.user_id) : 0;
  const [removed] = user
    ? await tx
        .delete(farmAccess)
        .where(and(eq(farmAccess.b_id_farm, farmId), eq(farmAccess.user_id, user.user_id)))
        .returning({ role: farmAccess.role })
    : [];
  if (!removed) throw notFound(`${email} has no role on this farm.`);
  // Checked after the delete, inside the transaction: throwing rolls it back.
  if (removed.role === 'owner' && owners === 0) throw lastOwner();
}
