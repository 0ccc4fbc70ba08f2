// Turns a raw API key into a principal with as few database statements as stays exact.
import { keyCheckNeeded } from '../access/key-check.js';
import type { DatabaseHandle } from '../db/client.js';
import { findActiveKeyByHash, isKeyActive, recordKeyUse } from './api-keys-store.js';
import type { Principal } from './principal.js';
import { sha256 } from './secrets.js';

interface RememberedKey {
  hash: string;
  keyId: string;
  userId: string;
  expiresAtMs: number | null;
}

const MAX_REMEMBERED_KEYS = 50_000;
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Remembers active keys by hash. With exclusive ownership of the database (PGlite)
 * every revocation passes through this process, which forgets the key, and expiry
 * is checked against the clock, so a remembered key is exact. With a shared
 * PostgreSQL server a remembered key is only a hint: the principal is marked
 * unverified and the request's first statement re-checks the key, or finds the
 * farm it reads at the access version it had when it last checked the key
 * (access/farm-role-cache.ts).
 *
 * Unknown, revoked and expired keys all end in the same single lookup, so their
 * answers cannot be told apart by time either.
 */
export class KeyResolver {
  readonly #byHash = new Map<string, RememberedKey>();
  readonly #byId = new Map<string, RememberedKey>();
  readonly #lastUseWritten = new Map<string, number>();
  /**
   * The key last recognised on each open connection, by the text the client sent: a client sends the
   * same key on every request of a connection, and comparing that text costs a fraction of hashing it
   * (some 3,500 instructions a request). Only the client's own key is compared with what it sends; an
   * entry goes with its connection, and counts only while its key is still remembered.
   */
  readonly #lastOnConnection = new WeakMap<object, { rawKey: string; key: RememberedKey }>();

  constructor(private readonly database: DatabaseHandle) {}

  /**
   * `needVerified`: the caller is about to write, so a hint is not enough. A remembered key is answered
   * synchronously (no promise on the hot path); otherwise the key is looked up. `connection`: the
   * connection the request came on, when there is one.
   */
  resolve(rawKey: string, needVerified: boolean, connection?: object): Principal | Promise<Principal | null> {
    const last = connection === undefined ? undefined : this.#lastOnConnection.get(connection);
    let remembered: RememberedKey | undefined;
    let hash: string;
    if (last !== undefined && last.rawKey === rawKey && this.#byId.get(last.key.keyId) === last.key) {
      remembered = last.key;
      hash = remembered.hash;
    } else {
      hash = sha256(rawKey);
      remembered = this.#byHash.get(hash);
      if (remembered && connection !== undefined) this.#lastOnConnection.set(connection, { rawKey, key: remembered });
    }
    if (remembered && (remembered.expiresAtMs === null || remembered.expiresAtMs > Date.now())) {
      const exact = this.database.ownership === 'exclusive';
      if (exact || !needVerified) {
        return { userId: remembered.userId, keyId: remembered.keyId, verified: exact };
      }
    }
    return this.#lookUp(hash, remembered);
  }

  async #lookUp(hash: string, remembered: RememberedKey | undefined): Promise<Principal | null> {
    const active = await findActiveKeyByHash(this.database.db, hash);
    if (!active) {
      if (remembered) this.forget(remembered.keyId);
      return null;
    }
    this.#remember({
      hash,
      keyId: active.keyId,
      userId: active.userId,
      expiresAtMs: active.expiresAt?.getTime() ?? null,
    });
    return { userId: active.userId, keyId: active.keyId, verified: true };
  }

  /** Re-checks an unverified principal's key against the database. */
  async confirm(principal: Principal): Promise<boolean> {
    if (!keyCheckNeeded(principal)) return true;
    const active = await isKeyActive(this.database.db, principal.keyId);
    if (active) principal.verified = true;
    else this.forget(principal.keyId);
    return active;
  }

  /** Called after a revocation, and whenever a key turns out to be inactive. */
  forget(keyId: string): void {
    const remembered = this.#byId.get(keyId);
    if (remembered) this.#byHash.delete(remembered.hash);
    this.#byId.delete(keyId);
    this.#lastUseWritten.delete(keyId);
  }

  #remember(key: RememberedKey): void {
    if (this.#byHash.size >= MAX_REMEMBERED_KEYS) {
      const oldest = this.#byHash.values().next().value;
      if (oldest) this.forget(oldest.keyId);
    }
    this.#byHash.set(key.hash, key);
    this.#byId.set(key.keyId, key);
  }

  /**
   * Records that a request with the principal's key was served (not refused by the rate limit).
   * last_used_at is kept to the minute: at most one write per key and minute, off the request's path.
   */
  noteUse({ keyId }: Principal): void {
    // A key forgotten during the request (revoked by it) is not noted again.
    if (keyId === null || !this.#byId.has(keyId)) return;
    const now = Date.now();
    const written = this.#lastUseWritten.get(keyId);
    if (written !== undefined && now - written < LAST_USED_RESOLUTION_MS) return;
    this.#lastUseWritten.set(keyId, now);
    recordKeyUse(this.database.db, keyId, new Date(now)).catch((error: unknown) => {
      this.#lastUseWritten.delete(keyId);
      console.error(JSON.stringify({ level: 'error', msg: 'could not record API key use', error: String(error) }));
    });
  }
}
