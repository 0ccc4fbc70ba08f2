// The idempotency keys of POST requests (docs/api.md, Idempotency): one row per user and key, first a
// reservation taken before the work, then the response to replay until it expires.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client.js';
import type { idempotencyKeys } from '../db/schema.js';

/** How long a response is replayed, counted from the request that reserved its key. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * How old a reservation without a response must be before another request may take it over: longer than
 * any request runs, so only a request whose process died (or lost its database) leaves one this old.
 */
export const RESERVATION_TAKEOVER_SECONDS = 10 * 60;

/** The response stored for a key: its status, body (null for none) and the header fields a replay repeats. */
export interface StoredResponse {
  status: number;
  contentType: string | null;
  location: string | null;
  etag: string | null;
  body: string | null;
}

/** A stored response as a replay finds it: `bodyOmitted` when it had a body that was not stored (over the budget). */
export interface FoundResponse extends StoredResponse {
  bodyOmitted: boolean;
}

/** What a user's stored response bodies may add up to, over all their entries not yet swept. */
export interface StorageBudget {
  /** The largest body stored at all (UTF-8 bytes). */
  maxBodyBytes: number;
  /** The bodies of one user together. */
  userBytes: number;
  /** The entries of one user with a body. */
  userEntries: number;
}

export interface KeyOwner {
  userId: string;
  key: string;
}

/** What reserving a key found: the key is now ours, or another request holds it (answered or not yet). */
export type Reservation = { reserved: true } | { reserved: false; fingerprint: string; answer: FoundResponse | null };

/** One retry covers the race below; a third attempt would need the key deleted and reserved again in between. */
const MAX_RESERVE_ATTEMPTS = 3;

type ReservationRow = Pick<
  typeof idempotencyKeys.$inferSelect,
  'fingerprint' | 'status' | 'content_type' | 'location' | 'etag' | 'body' | 'body_bytes'
> & {
  reserved: boolean;
};

/**
 * Reserves `key` for the request with `fingerprint` under the random token `reservation`, in one
 * statement: a new key is inserted; an expired entry, or a reservation left unanswered past the takeover
 * bound, is taken over; any other entry is returned as it is. The insert's conflict check waits for a
 * concurrent reservation of the same key to commit, so of two requests exactly one reserves it.
 */
export async function reserveKey(db: Database, owner: KeyOwner, fingerprint: string, reservation: string): Promise<Reservation> {
  // The existing row is read from the statement's snapshot: a reservation committed after the snapshot
  // was taken, but before the conflict check saw it, leaves both halves empty; asking again finds it.
  for (let attempt = 1; ; attempt++) {
    const [row] = await queryRows<ReservationRow>(
      db,
      sql`with taken as (
            insert into idempotency_keys as k (user_id, idempotency_key, fingerprint, reservation, reserved_at)
            values (${owner.userId}, ${owner.key}, ${fingerprint}, ${reservation}, now())
            on conflict (user_id, idempotency_key) do update
              set fingerprint = excluded.fingerprint, reservation = excluded.reservation, reserved_at = excluded.reserved_at,
                  status = null, content_type = null, location = null, etag = null, body = null, body_bytes = null
              where k.reserved_at <= now() - make_interval(secs => ${IDEMPOTENCY_TTL_SECONDS})
                 or (k.status is null and k.reserved_at <= now() - make_interval(secs => ${RESERVATION_TAKEOVER_SECONDS}))
            returning true as reserved, k.fingerprint, k.status, k.content_type, k.location, k.etag, k.body, k.body_bytes
          )
          select * from taken
          union all
          select false, fingerprint, status, content_type, location, etag, body, body_bytes from idempotency_keys
           where user_id = ${owner.userId} and idempotency_key = ${owner.key} and not exists (select from taken)`,
    );
    if (row === undefined) {
      if (attempt < MAX_RESERVE_ATTEMPTS) continue;
      throw new Error(`idempotency key neither reserved nor found in ${MAX_RESERVE_ATTEMPTS} attempts`);
    }
    if (row.reserved) return { reserved: true };
    const answer =
      row.status === null
        ? null
        : {
            status: row.status,
            contentType: row.content_type,
            location: row.location,
            etag: row.etag,
            body: row.body,
            bodyOmitted: row.body === null && row.body_bytes !== null,
          };
    return { reserved: false, fingerprint: row.fingerprint, answer };
  }
}

/**
 * Stores the response of the request holding `reservation`, with its body when that fits the user's `budget`
 * and without it otherwise; a reservation taken over since, or answered already, stores nothing. `tx` is a
 * transaction: the write's, so that the response commits with it, or one of its own. The user's stored bodies
 * are counted under a lock of the user's own, held to the commit, and by a statement of their own that sees
 * every commit before the lock was had: two requests of one user cannot both take the last of the budget.
 */
export async function completeKey(
  tx: Database,
  owner: KeyOwner,
  reservation: string,
  answer: StoredResponse,
  budget: StorageBudget,
): Promise<void> {
  const bytes = answer.body === null ? null : Buffer.byteLength(answer.body);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`idempotency:${owner.userId}`}, 0))`);
  await tx.execute(
    sql`update idempotency_keys
           set status = ${answer.status}, content_type = ${answer.contentType}, location = ${answer.location},
               etag = ${answer.etag}, body_bytes = ${bytes},
               body = case when ${bytes}::int <= ${budget.maxBodyBytes}::int and (
                        select count(*) < ${budget.userEntries} and coalesce(sum(s.body_bytes), 0) + ${bytes}::int <= ${budget.userBytes}
                          from idempotency_keys s where s.user_id = ${owner.userId} and s.body is not null)
                      then ${answer.body} end
         where user_id = ${owner.userId} and idempotency_key = ${owner.key} and reservation = ${reservation} and status is null`,
  );
}

/**
 * Lets go of the key held by `reservation`, so that the next request with it runs again; a key whose response
 * is stored (committed with its write) is kept.
 */
export async function releaseKey(db: Database, owner: KeyOwner, reservation: string): Promise<void> {
  await db.execute(
    sql`delete from idempotency_keys
         where user_id = ${owner.userId} and idempotency_key = ${owner.key} and reservation = ${reservation} and status is null`,
  );
}

/** Deletes up to `limit` expired entries, oldest first; returns how many it deleted. */
export async function deleteExpiredKeys(db: Database, limit: number): Promise<number> {
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`delete from idempotency_keys
         where (user_id, idempotency_key) in (
           select user_id, idempotency_key from idempotency_keys
            where reserved_at <= now() - make_interval(secs => ${IDEMPOTENCY_TTL_SECONDS})
            order by reserved_at
            limit ${limit})
        returning user_id`,
  );
  return rows.length;
}
