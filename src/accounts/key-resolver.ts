// Turns a raw API key into a principal with as few database statements as stays exact.
import type { AccessMemory, RememberedKey } from '../access/access-memory.js';
import type { DatabaseHandle } from '../db/client.js';
import { findActiveKeyByHash, isKeyActive, recordKeyUse } from './api-keys-store.js';
import { keyCheckNeeded, type Principal } from '../core/principal.js';
import { sha256 } from '../core/secrets.js';
import type { Logger } from '../core/logger.js';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Recognises keys from memory (access/access-memory.ts) as hints that the request's first statement
 * confirms; a request that writes, or a key not remembered, is looked up by hash. Unknown, revoked
 * and expired keys all end in the same single lookup, so their responses cannot be told apart by time either.
 */
export class KeyResolver {
  readonly #lastUseWritten = new Map<string, number>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly memory: AccessMemory,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

  /**
   * `needVerified`: the caller is about to write, so a hint is not enough. A remembered key is answered
   * synchronously (no promise on the hot path); otherwise the key is looked up. `connection`: the
   * connection the request came on, when there is one.
   */
  resolve(rawKey: string, needVerified: boolean, connection?: object): Principal | Promise<Principal | null> {
    const onConnection = this.memory.keyOnConnection(connection, rawKey);
    // A key remembered on the connection carries its hash: the raw key is hashed only when it is not.
    const hash = onConnection?.hash ?? sha256(rawKey);
    const remembered = onConnection ?? this.memory.keyByHash(hash, rawKey, connection);
    if (remembered && !needVerified && (remembered.expiresAtMs === null || remembered.expiresAtMs > Date.now())) {
      return { userId: remembered.userId, keyId: remembered.keyId, scope: remembered.scope, verified: false };
    }
    return this.#lookUp(hash, remembered);
  }

  async #lookUp(hash: string, remembered: RememberedKey | undefined): Promise<Principal | null> {
    const active = await findActiveKeyByHash(this.database, hash);
    if (!active) {
      if (remembered) this.forget(remembered.keyId);
      return null;
    }
    const { keyId, userId, scope } = active;
    this.memory.rememberKey({ hash, keyId, userId, scope, expiresAtMs: active.expiresAtMs });
    return { userId, keyId, scope, verified: true };
  }

  /** Re-checks an unverified principal's key against the database. */
  async confirm(principal: Principal): Promise<boolean> {
    if (!keyCheckNeeded(principal)) return true;
    const active = await isKeyActive(this.database.db, principal.keyId);
    if (active) principal.verified = true;
    else this.forget(principal.keyId);
    return active;
  }

  /** A key that turned out to be inactive. */
  forget(keyId: string): void {
    this.memory.forgetKey(keyId);
    this.#lastUseWritten.delete(keyId);
  }

  /**
   * Records that a request with the principal's key was served (not refused by the rate limit).
   * last_used_at is kept to the minute: at most one write per key and minute, off the request's path.
   */
  noteUse({ keyId }: Principal): void {
    // A key forgotten during the request (revoked by it) is not noted again.
    if (keyId === null || !this.memory.isKeyRemembered(keyId)) return;
    const now = Date.now();
    const written = this.#lastUseWritten.get(keyId);
    if (written !== undefined && now - written < LAST_USED_RESOLUTION_MS) return;
    this.#lastUseWritten.set(keyId, now);
    recordKeyUse(this.database.db, keyId, new Date(now)).catch((error: unknown) => {
      this.#lastUseWritten.delete(keyId);
      this.log.error({ error: String(error) }, 'could not record API key use');
    });
  }
}
