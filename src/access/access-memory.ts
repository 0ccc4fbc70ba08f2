// What the process remembers between requests about who may do what: active API keys, and the role
// each key's user was found to have on a farm. One rule, on both databases: nothing remembered is
// believed on its own.
// - A remembered key is a hint. The request's first statement confirms it (access/key-check.ts), and
//   a request that writes looks its key up afresh (accounts/key-resolver.ts).
// - A remembered role holds only while the farm's `access_version` and the user's are the ones it was
//   read with; the statement that reads the farm checks both (resources/farms/store.ts). Every change that
//   can take access away moves one of them on in its own transaction (database triggers): a role on the
//   farm, a person's or an organisation's, changed or removed moves the farm's; a membership removed, a
//   key revoked, expired or deleted moves the user's. A deleted farm has no row: the very next request
//   sees the change, whatever order requests and answers arrive in.
// - That a user has no role is never remembered: a first grant moves no version.
import type { KeyScope } from '../core/principal.js';
import type { FarmRole } from '../db/schema.js';

/** `farms.access_version` or `users.access_version`, as text: a bigint, compared for equality only. */
export type AccessVersion = string;

export interface RememberedKey {
  hash: string;
  keyId: string;
  userId: string;
  expiresAtMs: number | null;
  /** Fixed at the key's creation, so remembering it is exact. */
  scope: KeyScope;
}

export interface RememberedRole {
  role: FarmRole;
  /** The farm's access version. */
  version: AccessVersion;
  /** The user's. */
  userVersion: AccessVersion;
}

const MAX_KEYS = 50_000;
const MAX_FARMS = 50_000;

export class AccessMemory {
  readonly #keysByHash = new Map<string, RememberedKey>();
  readonly #keysById = new Map<string, RememberedKey>();
  /**
   * The key last recognised on each open connection, by the text its client sent: a client sends the
   * same key on every request of a connection, and comparing that text costs a fraction of hashing it.
   * An entry goes with its connection, and counts only while its key is still remembered.
   */
  readonly #keyOnConnection = new WeakMap<object, { rawKey: string; key: RememberedKey }>();
  readonly #rolesByFarm = new Map<string, Map<string, RememberedRole>>();

  /** The key the client sent on this connection before, if it sent the same text and the key is still remembered. */
  keyOnConnection(connection: object | undefined, rawKey: string): RememberedKey | undefined {
    if (connection === undefined) return undefined;
    const last = this.#keyOnConnection.get(connection);
    if (last === undefined || last.rawKey !== rawKey || this.#keysById.get(last.key.keyId) !== last.key) return undefined;
    return last.key;
  }

  /** The key remembered by its hash; noted for the connection, where there is one. */
  keyByHash(hash: string, rawKey: string, connection: object | undefined): RememberedKey | undefined {
    const key = this.#keysByHash.get(hash);
    if (key !== undefined && connection !== undefined) this.#keyOnConnection.set(connection, { rawKey, key });
    return key;
  }

  rememberKey(key: RememberedKey): void {
    this.forgetKey(key.keyId);
    if (this.#keysByHash.size >= MAX_KEYS) {
      const oldest = this.#keysByHash.values().next().value;
      if (oldest) this.forgetKey(oldest.keyId);
    }
    this.#keysByHash.set(key.hash, key);
    this.#keysById.set(key.keyId, key);
  }

  /** A key found inactive: later requests with it are looked up again. */
  forgetKey(keyId: string): void {
    const key = this.#keysById.get(keyId);
    if (key) this.#keysByHash.delete(key.hash);
    this.#keysById.delete(keyId);
  }

  isKeyRemembered(keyId: string): boolean {
    return this.#keysById.has(keyId);
  }

  /** The role of the key's user on the farm, as last read, with the farm's access version it was read at. */
  role(farmId: string, keyId: string): RememberedRole | undefined {
    return this.#rolesByFarm.get(farmId)?.get(keyId);
  }

  /** Only from a statement that also found the key active, so that the version it read postdates any revocation of the key. */
  rememberRole(farmId: string, keyId: string, role: RememberedRole): void {
    let keys = this.#rolesByFarm.get(farmId);
    if (keys === undefined) {
      if (this.#rolesByFarm.size >= MAX_FARMS) this.#rolesByFarm.clear();
      this.#rolesByFarm.set(farmId, (keys = new Map()));
    }
    keys.set(keyId, role);
  }
}
