// Slows password guessing: sign-in attempts per e-mail address at one client address,
// and per client address, in a sliding window. Never per e-mail address alone: then
// anyone could lock its owner out from everywhere by failing on purpose.
// State is per process (see README).

export interface ThrottleLimits {
  /** Attempts that did not succeed, per e-mail address from one client address, within the window. */
  perEmailAndAddress: number;
  /** Attempts that did not succeed, per client address, within the window. */
  perAddress: number;
  windowMs: number;
}

const DEFAULT_LIMITS: ThrottleLimits = { perEmailAndAddress: 10, perAddress: 50, windowMs: 15 * 60 * 1000 };

// Bounds memory when someone sprays attempts at many addresses or e-mails.
const MAX_KEYS = 100_000;

/** Timestamps of counted attempts per key, oldest first. */
class AttemptLog {
  readonly #byKey = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until one more attempt is allowed; 0 when it is allowed now. */
  waitMs(key: string, now: number): number {
    const times = this.#current(key, now);
    // The oldest of the last `limit` attempts: none while fewer were made.
    const oldest = times[times.length - this.limit];
    return oldest === undefined ? 0 : oldest + this.windowMs - now;
  }

  add(key: string, at: number): void {
    const times = this.#current(key, at);
    this.#byKey.delete(key);
    const oldestKey = this.#byKey.keys().next();
    if (this.#byKey.size >= MAX_KEYS && !oldestKey.done) this.#byKey.delete(oldestKey.value);
    this.#byKey.set(key, [...times, at]);
  }

  /** Takes back one attempt made at `at`. */
  remove(key: string, at: number): void {
    const times = this.#byKey.get(key) ?? [];
    const index = times.lastIndexOf(at);
    if (index >= 0) times.splice(index, 1);
  }

  clear(key: string): void {
    this.#byKey.delete(key);
  }

  #current(key: string, now: number): number[] {
    const times = (this.#byKey.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length === 0) this.#byKey.delete(key);
    else this.#byKey.set(key, times);
    return times;
  }
}

export type Admission = { admitted: true; succeeded(): void } | { admitted: false; retryAfterSeconds: number };

export class SignInThrottle {
  readonly #byEmailAndAddress: AttemptLog;
  readonly #byAddress: AttemptLog;

  constructor(
    limits: ThrottleLimits = DEFAULT_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {
    this.#byEmailAndAddress = new AttemptLog(limits.perEmailAndAddress, limits.windowMs);
    this.#byAddress = new AttemptLog(limits.perAddress, limits.windowMs);
  }

  /**
   * Admits an attempt and counts it, or refuses it with the seconds to wait.
   * The attempt counts before the password is checked, so guesses sent in
   * parallel are counted too; `succeeded()` takes it back and forgets the
   * e-mail address's earlier failures at this client address.
   */
  admit(email: string, address: string): Admission {
    const now = this.clock();
    // A line break cannot be part of an e-mail address or a network address: the pair stays unambiguous.
    const pairKey = `${email.trim().toLowerCase()}\n${address}`;
    const waitMs = Math.max(this.#byEmailAndAddress.waitMs(pairKey, now), this.#byAddress.waitMs(address, now));
    if (waitMs > 0) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    this.#byEmailAndAddress.add(pairKey, now);
    this.#byAddress.add(address, now);
    return {
      admitted: true,
      succeeded: () => {
        this.#byEmailAndAddress.clear(pairKey);
        this.#byAddress.remove(address, now);
      },
    };
  }
}
