// Roles on farms and memberships given to an address before anyone signed up with it: at that address's
// sign-up they become the new user's, in the sign-up's transaction; what has lapsed (PENDING_DAYS) is dropped.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client.js';
import { startBatchedCleanup, type BatchedCleanup } from '../db/batched-cleanup.js';
import type { Logger } from '../core/logger.js';
import { ORGANISATIONS_PER_USER } from '../access/organisation-roles.js';

/** Run in the transaction that creates the user. At most ORGANISATIONS_PER_USER memberships, the oldest first. */
export async function claimPendingAccess(tx: Database, userId: string, email: string): Promise<void> {
  await tx.execute(sql`
    insert into farm_access (b_id_farm, user_id, role, farm_created_at, created_at)
    select p.b_id_farm, ${userId}, p.role, f.created_at, p.created_at
    from pending_farm_access p join farms f on f.b_id_farm = p.b_id_farm
    where lower(p.email) = lower(${email}) and p.expires_at > now()`);
  await tx.execute(sql`
    insert into organisation_members (organisation_id, user_id, role, created_at)
    select organisation_id, ${userId}, role, created_at from pending_organisation_members
    where lower(email) = lower(${email}) and expires_at > now()
    order by created_at, organisation_id limit ${ORGANISATIONS_PER_USER}`);
  await tx.execute(sql`delete from pending_farm_access where lower(email) = lower(${email})`);
  await tx.execute(sql`delete from pending_organisation_members where lower(email) = lower(${email})`);
}

/** Removes up to `limit` entries that waited longer than PENDING_DAYS, roles on farms first; returns how many. */
export async function deleteLapsedAccess(db: Database, limit: number): Promise<number> {
  const farms = await queryRows<{ b_id_farm: string }>(
    db,
    sql`delete from pending_farm_access where (b_id_farm, email) in (
          select b_id_farm, email from pending_farm_access where expires_at <= now() order by expires_at limit ${limit})
        returning b_id_farm`,
  );
  if (farms.length === limit) return limit;
  const memberships = await queryRows<{ organisation_id: string }>(
    db,
    sql`delete from pending_organisation_members where (organisation_id, email) in (
          select organisation_id, email from pending_organisation_members where expires_at <= now() order by expires_at
          limit ${limit - farms.length})
        returning organisation_id`,
  );
  return farms.length + memberships.length;
}

const SWEEP_INTERVAL_MS = 60 * 60_000;
const SWEEP_BATCH = 500;

/** Sweeps lapsed entries every hour, a batch per statement (db/batched-cleanup.ts). */
export const startLapsedAccessSweeper = (db: Database, log: Logger): BatchedCleanup =>
  startBatchedCleanup({
    what: 'lapsed roles and memberships of addresses that never signed up',
    deleteBatch: (limit) => deleteLapsedAccess(db, limit),
    batchSize: SWEEP_BATCH,
    intervalMs: SWEEP_INTERVAL_MS,
    atStart: true,
    log,
  });
