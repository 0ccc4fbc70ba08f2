// Roles on farms, remembered per API key where that stays exact. With the embedded database this process is
// the only writer (as for API keys, see accounts/key-resolver.ts), and every change of a farm's roles passes
// through the routes that forget the farm here. With a shared PostgreSQL server a role is remembered with the
// farm's access version (db/schema.ts `farms.access_version`), read by the same statement that checked the key,
// and holds only while a statement finds the farm at that same version: every change that could take the
// key's access away (the role, or the key itself) moves the version on in its own transaction.
import type { DatabaseHandle } from '../db/client.js';
import type { FarmRole } from '../db/schema.js';

/** `farms.access_version`, as text: a bigint, compared for equality only. */
export type AccessVersion = string;

const MAX_FARMS = 50_000;

export interface RememberedRole {
  /** null: the key's user has no role on the farm (remembered with the embedded database only). */
  role: FarmRole | null;
  /** The farm's access version the role was read at; null when it does not matter (embedded database). */
  version: AccessVersion | null;
}

export class FarmRoleCache {
  readonly #byFarm = new Map<string, Map<string, RememberedRole>>();

  constructor(private readonly ownership: DatabaseHandle['ownership']) {}

  /** What is remembered of the role of the key's user on the farm, or undefined. */
  get(farmId: string, keyId: string): RememberedRole | undefined {
    return this.#byFarm.get(farmId)?.get(keyId);
  }

  remember(farmId: string, keyId: string, role: FarmRole | null, version: AccessVersion | null): void {
    // Shared: that a user lacks a role can end by a plain insert, which moves no version; a role they had is forgotten.
    if (this.ownership === 'shared' && role === null) {
      this.#byFarm.get(farmId)?.delete(keyId);
      return;
    }
    if (this.#byFarm.size >= MAX_FARMS && !this.#byFarm.has(farmId)) this.#byFarm.clear();
    let keys = this.#byFarm.get(farmId);
    if (!keys) this.#byFarm.set(farmId, (keys = new Map()));
    keys.set(keyId, { role, version });
  }

  /** After any change of the farm's roles, or of the farm itself. */
  forget(farmId: string): void {
    this.#byFarm.delete(farmId);
  }
}
