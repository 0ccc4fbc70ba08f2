// The exact sliding window ("sliding log") of one bucket, kept in memory.

export interface RateDecision {
  /** Whether the request was counted; a refused request is not. */
  allowed: boolean;
  /** Requests the window admits after this one. */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (one more fits then). */
  resetMs: number;
}

const INITIAL_CAPACITY = 16;

/**
 * The times of the requests counted in the last `windowMs`, oldest first, in a ring buffer
 * that grows (doubling) up to `limit` entries. A request counted at `t` occupies the window
 * during [t, t + windowMs). Counting costs no allocation beyond the decision itself.
 */
export class SlidingWindow {
  #times: Float64Array;
  #oldest = 0;
  #count = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.#times = new Float64Array(Math.min(limit, INITIAL_CAPACITY));
  }

  /** Requests the window still admits at `now`. */
  roomAt(now: number): number {
    this.#dropExpired(now);
    return this.limit - this.#count;
  }

  /** Counts a request at `now` when the window has room for it. */
  hit(now: number): RateDecision {
    this.#dropExpired(now);
    if (this.#count === this.limit) {
      return { allowed: false, remaining: 0, resetMs: this.#resetMs(now) };
    }
    if (this.#count === this.#times.length) this.#grow();
    this.#times[(this.#oldest + this.#count) % this.#times.length] = now;
    this.#count++;
    return { allowed: true, remaining: this.limit - this.#count, resetMs: this.#resetMs(now) };
  }

  // Not `oldest + windowMs - now`: in floating point that can come out a hair above windowMs for a
  // request counted just now, and a whole second more once rounded up for the RateLimit field.
  #resetMs(now: number): number {
    const oldest = this.#times[this.#oldest];
    return oldest === undefined ? 0 : this.windowMs - (now - oldest);
  }

  /** True when nothing counted is left in the window at `now`, so the bucket may be forgotten. */
  isEmptyAt(now: number): boolean {
    this.#dropExpired(now);
    return this.#count === 0;
  }

  #dropExpired(now: number): void {
    const capacity = this.#times.length;
    while (this.#count > 0) {
      const oldest = this.#times[this.#oldest];
      if (oldest === undefined || oldest + this.windowMs > now) return;
      this.#oldest = (this.#oldest + 1) % capacity;
      this.#count--;
    }
  }

  #grow(): void {
    const grown = new Float64Array(Math.min(this.limit, this.#times.length * 2));
    // Called when full: the ring from its oldest entry to the end, then from the start.
    grown.set(this.#times.subarray(this.#oldest));
    grown.set(this.#times.subarray(0, this.#oldest), this.#times.length - this.#oldest);
    this.#times = grown;
    this.#oldest = 0;
  }
}
