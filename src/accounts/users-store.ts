// Users and their browser sessions. E-mail addresses are unique, compared case-insensitively.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { sessions, users } from '../db/schema.js';
import { isUniqueViolation } from '../db/errors.js';
import { firstRow } from '../db/first-row.js';
import type { SelectedRow } from '../db/records.js';
import { newId, newSecret, sha256 } from '../core/secrets.js';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** What the server shows of a user: never the password hash. */
const userColumns = { user_id: users.user_id, email: users.email, name: users.name };
export type User = SelectedRow<typeof userColumns>;

/** Creates a user; undefined when the e-mail address is taken. */
export async function createUser(db: Database, email: string, name: string, passwordHash: string): Promise<User | undefined> {
  try {
    const rows = await db.insert(users).values({ user_id: newId(), email, name, password_hash: passwordHash }).returning(userColumns);
    return firstRow(rows, 'insert into users');
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

export async function findSessionUser(db: Database, token: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: sessions.user_id })
    .from(sessions)
    .where(and(eq(sessions.session_hash, sha256(token)), gt(sessions.expires_at, sql`now()`)));
  return row?.userId;
}

/** The user of a live session, in one query. */
export async function findSessionAccount(db: Database, token: string): Promise<User | undefined> {
  const [row] = await db
    .select(userColumns)
    .from(sessions)
    .innerJoin(users, eq(users.user_id, sessions.user_id))
    .where(and(eq(sessions.session_hash, sha256(token)), gt(sessions.expires_at, sql`now()`)));
  return row;
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.session_hash, sha256(token)));
}
