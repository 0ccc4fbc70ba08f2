// Roles on farms, remembered where that stays exact. With the embedded database this process is the only
// writer (as for API keys, see accounts/key-resolver.ts), and every change of a farm's roles passes through
// the routes that forget the farm here. With a shared PostgreSQL server a role is remembered with the access
// epoch it was read at and holds only while a statement reads that same epoch (see access-epoch.ts).
import type { DatabaseHandle } from '../db/client.js';
import type { FarmRole } from '../db/schema.js';
import type { AccessEpoch } from './access-epoch.js';

const MAX_FARMS = 50_000;

export interface RememberedRole {
  /** null: the user has no role on the farm (remembered with the embedded database only). */
  role: FarmRole | null;
  /** The access epoch the role was read at; null when it does not matter (embedded database). */
  epoch: AccessEpoch | null;
}

export class FarmRoleCache {
  readonly #byFarm = new Map<string, Map<string, RememberedRole>>();

  constructor(private readonly ownership: DatabaseHandle['ownership']) {}

  /** What is remembered of the user's role on the farm, or undefined. */
  get(farmId: string, userId: string): RememberedRole | undefined {
    return this.#byFarm.get(farmId)?.get(userId);
  }

  remember(farmId: string, userId: string, role: FarmRole | null, epoch: AccessEpoch | null): void {
    // Shared: that a user lacks a role can end by a plain insert, which moves no epoch; a role they had is forgotten.
    if (this.ownership === 'shared' && role === null) {
      this.#byFarm.get(farmId)?.delete(userId);
      return;
    }
    if (this.#byFarm.size >= MAX_FARMS && !this.#byFarm.has(farmId)) this.#byFarm.clear();
    let users = this.#byFarm.get(farmId);
    if (!users) this.#byFarm.set(farmId, (users = new Map()));
    users.set(userId, { role, epoch });
  }

  /** After any change of the farm's roles, or of the farm itself. */
  forget(farmId: string): void {
    this.#byFarm.delete(farmId);
  }
}
