// Queries on API keys. Only the SHA-256 hash of a raw key is ever stored.
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../db/client.js';
import { Statement } from '../db/statement.js';
import { firstRow } from '../db/first-row.js';
import { countRows, inOneSnapshot } from '../db/paging.js';
import type { SelectedRow } from '../db/records.js';
import { apiKeys, users } from '../db/schema.js';
import { newId, newSecret, sha256 } from '../core/secrets.js';
import type { KeyAccess, KeyScope } from '../core/principal.js';
import { farmsWithoutRole } from '../access/roles.js';

export const KEY_PREFIX_LENGTH = 12;

export interface ApiKeyMetadata {
  id: string;
  prefix: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  /** What the key may do, and the only farms it reaches (null: all its owner reaches). */
  access: KeyAccess;
  farms: string[] | null;
}

const isActive = () => and(isNull(apiKeys.revoked_at), or(isNull(apiKeys.expires_at), gt(apiKeys.expires_at, sql`now()`)));

const metadataColumns = {
  id: apiKeys.key_id,
  prefix: apiKeys.prefix,
  name: apiKeys.name,
  created_at: apiKeys.created_at,
  last_used_at: apiKeys.last_used_at,
  expires_at: apiKeys.expires_at,
  access: apiKeys.access,
  farms: apiKeys.farms,
};

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function toMetadata(row: SelectedRow<typeof metadataColumns>): ApiKeyMetadata {
  return { ...row, created_at: row.created_at.toISOString(), last_used_at: iso(row.last_used_at), expires_at: iso(row.expires_at) };
}

/** What a new key is made of besides its secret. */
export interface NewApiKey {
  name: string;
  expiresAt: Date | null;
  scope: KeyScope;
}

/** A key made; the cap on active keys reached; or farms given that the user has no role on (in the order given). */
export type KeyCreation =
  { kind: 'created'; key: ApiKeyMetadata & { key: string } } | { kind: 'at-cap' } | { kind: 'farms-not-reached'; positions: number[] };

/**
 * Creates a key, unless the user holds `maxActive` active keys already, or is given farms the user has
 * no role on now. Creations for one user queue on the user's row, so that each counts the keys the
 * others committed.
 */
export async function createApiKey(
  db: Database,
  userId: string,
  { name, expiresAt, scope }: NewApiKey,
  maxActive: number,
): Promise<KeyCreation> {
  const key = `akk_${newSecret()}`;
  return db.transaction(async (tx): Promise<KeyCreation> => {
    // No key update: the lock does not hold up statements that only refer to the user (a new session, a farm).
    await tx.select({ id: users.user_id }).from(users).where(eq(users.user_id, userId)).for('no key update');
    if (scope.farms !== null) {
      const missing = new Set(await farmsWithoutRole(tx, userId, scope.farms));
      const positions = scope.farms.flatMap((farmId, position) => (missing.has(farmId) ? [position] : []));
      if (positions.length > 0) return { kind: 'farms-not-reached', positions };
    }
    if ((await countRows(tx, apiKeys, and(eq(apiKeys.user_id, userId), isActive()))) >= maxActive) return { kind: 'at-cap' };
    const rows = await tx
      .insert(apiKeys)
      .values({
        key_id: newId(),
        user_id: userId,
        name,
        prefix: key.slice(0, KEY_PREFIX_LENGTH),
        key_hash: sha256(key),
        expires_at: expiresAt,
        access: scope.access,
        farms: scope.farms === null ? null : [...scope.farms],
      })
      .returning(metadataColumns);
    return { kind: 'created', key: { ...toMetadata(firstRow(rows, 'insert into api_keys')), key } };
  });
}

/** Why a key was not made for its farms, for the API's response and the page alike: the same whether a farm exists or not. */
export const farmNotReachedMessage = 'is not a farm you have a role on';

/** Why a key was not created at the cap, for the API's response and the page alike. */
export const keyCapMessage = (maxActive: number) =>
  `You hold ${maxActive} active API keys, the most one user may hold at once. Revoke a key you no longer use, then create the new one.`;

export async function listActiveApiKeys(db: Database, userId: string, limit: number, offset: number) {
  const where = and(eq(apiKeys.user_id, userId), isActive());
  const [rows, total] = await inOneSnapshot(db, (tx) =>
    Promise.all([
      tx
        .select(metadataColumns)
        .from(apiKeys)
        .where(where)
        .orderBy(asc(apiKeys.created_at), asc(apiKeys.key_id))
        .limit(limit)
        .offset(offset),
      countRows(tx, apiKeys, where),
    ]),
  );
  return { data: rows.map(toMetadata), total };
}

/** One active key of this user, or undefined. */
export async function findActiveApiKey(db: Database, userId: string, keyId: string): Promise<ApiKeyMetadata | undefined> {
  const [row] = await db
    .select(metadataColumns)
    .from(apiKeys)
    .where(and(eq(apiKeys.key_id, keyId), eq(apiKeys.user_id, userId), isActive()));
  return row && toMetadata(row);
}

/** Revokes an active key of this user; false when there is none with that id. */
export async function revokeApiKey(db: Database, userId: string, keyId: string): Promise<boolean> {
  const revoked = await db
    .update(apiKeys)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(apiKeys.key_id, keyId), eq(apiKeys.user_id, userId), isActive()))
    .returning({ id: apiKeys.key_id });
  return revoked.length > 0;
}

const activeKeyByHashStatement = new Statement<
  { key_id: string; user_id: string; expires_at_ms: number | null; access: KeyAccess; farms: string[] | null },
  { hash: string }
>(
  'active_key_by_hash',
  sql`select key_id, user_id, (extract(epoch from expires_at) * 1000)::float8 as expires_at_ms, access, farms
    from api_keys where ${and(eq(apiKeys.key_hash, sql.placeholder('hash')), isActive())}`,
);

/** The active key with this hash, with its owner and scope; every write and every key not remembered asks. */
export async function findActiveKeyByHash(database: DatabaseHandle, keyHash: string) {
  const [row] = await database.rows(activeKeyByHashStatement, { hash: keyHash });
  if (row === undefined) return undefined;
  const { key_id: keyId, user_id: userId, expires_at_ms: expiresAtMs, access, farms } = row;
  return { keyId, userId, expiresAtMs, scope: { access, farms } satisfies KeyScope };
}

export async function isKeyActive(db: Database, keyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: apiKeys.key_id })
    .from(apiKeys)
    .where(and(eq(apiKeys.key_id, keyId), isActive()));
  return row !== undefined;
}

/** Records use to the minute: never moves last_used_at backwards. */
export async function recordKeyUse(db: Database, keyId: string, at: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ last_used_at: at })
    .where(
      and(
        eq(apiKeys.key_id, keyId),
        isNull(apiKeys.revoked_at),
        or(isNull(apiKeys.last_used_at), sql`${apiKeys.last_used_at} < ${at.toISOString()}`),
      ),
    );
}

/** Lets the page that created the key show it once within `seconds` (pages/new-key-flash.ts). */
export async function allowKeyReveal(db: Database, keyId: string, seconds: number): Promise<void> {
  await db
    .update(apiKeys)
    .set({ reveal_until: sql`now() + ${`${seconds} seconds`}::interval` })
    .where(eq(apiKeys.key_id, keyId));
}

/** Whether the page may show this active key of the user now: true once only, as the record is cleared. */
export async function takeKeyReveal(db: Database, userId: string, keyId: string): Promise<boolean> {
  const taken = await db
    .update(apiKeys)
    .set({ reveal_until: null })
    .where(and(eq(apiKeys.key_id, keyId), eq(apiKeys.user_id, userId), gt(apiKeys.reveal_until, sql`now()`), isActive()))
    .returning({ id: apiKeys.key_id });
  return taken.length > 0;
}
