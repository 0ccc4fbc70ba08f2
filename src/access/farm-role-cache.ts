// Roles on farms, remembered where that stays exact: with the embedded database this process is the only
// writer (as for API keys, see accounts/key-resolver.ts), and every change of a farm's roles passes through
// the routes that forget the farm here. With a shared PostgreSQL server nothing is remembered.
import type { FarmRole } from '../db/schema.js';

const MAX_FARMS = 50_000;

export class FarmRoleCache {
  readonly #byFarm = new Map<string, Map<string, FarmRole | null>>();

  constructor(readonly enabled: boolean) {}

  /** The user's role (null: none), or undefined when it is not known here. */
  get(farmId: string, userId: string): FarmRole | null | undefined {
    return this.#byFarm.get(farmId)?.get(userId);
  }

  remember(farmId: string, userId: string, role: FarmRole | null): void {
    if (!this.enabled) return;
    if (this.#byFarm.size >= MAX_FARMS && !this.#byFarm.has(farmId)) this.#byFarm.clear();
    let users = this.#byFarm.get(farmId);
    if (!users) this.#byFarm.set(farmId, (users = new Map()));
    users.set(userId, role);
  }

  /** After any change of the farm's roles, or of the farm itself. */
  forget(farmId: string): void {
    this.#byFarm.delete(farmId);
  }
}
