// Sign-ups per client address in a rolling hour: accounts are cheap to make and each one brings its
// own keys and rate limits. Counted in the rate-limit store, so processes that share Redis share it.
import { ratePolicy, type RatePolicy } from '../rate-limit/policies.js';
import type { RateLimitWindows } from '../rate-limit/windows.js';

const HOUR_MS = 60 * 60 * 1000;

export type SignUpAdmission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

export class SignUpThrottle {
  readonly #policy: RatePolicy | undefined;

  /** `limitPerHour`: 0 admits every sign-up. */
  constructor(
    private readonly store: RateLimitWindows,
    limitPerHour: number,
  ) {
    this.#policy = limitPerHour === 0 ? undefined : ratePolicy('sign-up', 'write', limitPerHour, HOUR_MS);
  }

  /** Counts a sign-up attempt from `address`, or refuses it with the seconds to wait. */
  async admit(address: string): Promise<SignUpAdmission> {
    if (this.#policy === undefined) return { admitted: true };
    const decision = await this.store.hit(this.#policy, address);
    return decision.allowed ? { admitted: true } : { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(decision.resetMs / 1000)) };
  }
}
