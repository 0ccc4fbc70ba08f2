// Users and their browser sessions. E-mail addresses are unique, compared case-insensitively.
import { and, asc, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { sessions, users } from '../db/schema.js';
import { isUniqueViolation } from '../db/errors.js';
import { firstRow } from '../db/first-row.js';
import type { SelectedRow } from '../db/records.js';
import { countRows, inOneSnapshot } from '../db/paging.js';
import { newId, newSecret, sha256 } from '../core/secrets.js';
import { claimPendingAccess } from './pending-access.js';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** What the server shows of a user: never the password hash. */
const userColumns = { user_id: users.user_id, email: users.email, name: users.name };
export type User = SelectedRow<typeof userColumns>;

/**
 * Creates a user, with the roles and memberships that waited for the address (accounts/pending-access.ts);
 * undefined when the e-mail address is taken.
 */
export async function createUser(db: Database, email: string, name: string, passwordHash: string): Promise<User | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const rows = await tx.insert(users).values({ user_id: newId(), email, name, password_hash: passwordHash }).returning(userColumns);
      const user = firstRow(rows, 'insert into users');
      await claimPendingAccess(tx, user.user_id, email);
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row;
}

/** Starts a session and returns the cookie value; only its hash is stored. */
export async function createSession(db: Database, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret();
  const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
  await db.insert(sessions).values({ session_hash: sha256(token), user_id: userId, expires_at: expiresAt });
  return { token, expiresAt };
}

/** Whether a session's last use is a minute or more ago: only then is it written again. */
const lastUseStale = sql<boolean>`${sessions.last_used_at} <= now() - interval '1 minute'`;

/** The user of a live session, in one query; notes the session's use, at most once a minute. */
export async function findSessionAccount(db: Database, token: string): Promise<User | undefined> {
  const sessionHash = sha256(token);
  const [row] = await db
    .select({ ...userColumns, stale: lastUseStale })
    .from(sessions)
    .innerJoin(users, eq(users.user_id, sessions.user_id))
    .where(and(eq(sessions.session_hash, sessionHash), gt(sessions.expires_at, sql`now()`)));
  if (!row) return undefined;
  if (row.stale) {
    await db
      .update(sessions)
      .set({ last_used_at: sql`now()` })
      .where(eq(sessions.session_hash, sessionHash));
  }
  const { stale, ...user } = row;
  return user;
}

export async function findSessionUser(db: Database, token: string): Promise<string | undefined> {
  return (await findSessionAccount(db, token))?.user_id;
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.session_hash, sha256(token)));
}

/**
 * Ends every session of the user (but the one of `exceptToken`, when given), expired ones included;
 * returns how many of them were live.
 */
export async function endUserSessions(db: Database, userId: string, exceptToken?: string): Promise<number> {
  const except = exceptToken === undefined ? undefined : ne(sessions.session_hash, sha256(exceptToken));
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.user_id, userId), except))
    .returning({ live: sql<boolean>`${sessions.expires_at} > now()` });
  return ended.filter((row) => row.live).length;
}

/**
 * Sets a new password hash and ends every session of the user, in one transaction, unless the hash is
 * no longer `verifiedHash` (another change came first): then undefined. Returns how many live sessions
 * other than the one of `currentToken` ended.
 */
export async function replacePassword(
  db: Database,
  userId: string,
  hashes: { verified: string; replacement: string },
  currentToken: string,
): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(users)
      .set({ password_hash: hashes.replacement })
      .where(and(eq(users.user_id, userId), eq(users.password_hash, hashes.verified)))
      .returning({ id: users.user_id });
    if (changed.length === 0) return undefined;
    const others = await endUserSessions(tx, userId, currentToken);
    await deleteSession(tx, currentToken);
    return others;
  });
}

export interface SessionSummary {
  created_at: string;
  last_used_at: string;
  expires_at: string;
  /** The session of the request asking. */
  current: boolean;
}

/** The live sessions of the user, most recently used first: the first `limit`, and how many there are. */
export async function listLiveSessions(db: Database, userId: string, currentToken: string, limit: number) {
  const where = and(eq(sessions.user_id, userId), gt(sessions.expires_at, sql`now()`));
  const [rows, total] = await inOneSnapshot(db, (tx) =>
    Promise.all([
      tx
        .select({
          hash: sessions.session_hash,
          created_at: sessions.created_at,
          last_used_at: sessions.last_used_at,
          expires_at: sessions.expires_at,
        })
        .from(sessions)
        .where(where)
        .orderBy(desc(sessions.last_used_at), asc(sessions.session_hash))
        .limit(limit),
      countRows(tx, sessions, where),
    ]),
  );
  const current = sha256(currentToken);
  const data: SessionSummary[] = rows.map((row) => ({
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    current: row.hash === current,
  }));
  return { data, total };
}
