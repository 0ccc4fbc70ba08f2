// Rate-limit windows in this process's memory: exact for one process (the default store).
import type { RatePolicy } from './policies.js';
import { SlidingWindow } from './sliding-window.js';
import type { CeilingWindow, CountDecision, RateLimitWindows } from './windows.js';

/** How often buckets whose window has emptied are forgotten, so idle keys cost no memory. */
const SWEEP_INTERVAL_MS = 60_000;

export type Clock = () => number;

/** A monotonic clock: a wall-clock step (NTP) must not stretch or shrink a window. */
const monotonicClock: Clock = () => performance.now();

export class MemoryWindows implements RateLimitWindows {
  readonly keptIn = 'memory';
  // By policy name: every policy object of one name (the API's, the pages') shares its windows.
  readonly #windows = new Map<string, Map<string, SlidingWindow>>();
  #nextSweep: number;

  constructor(private readonly now: Clock = monotonicClock) {
    this.#nextSweep = now() + SWEEP_INTERVAL_MS;
  }

  hit(policy: RatePolicy, bucket: string, ceiling?: CeilingWindow): CountDecision {
    const now = this.now();
    if (now >= this.#nextSweep) this.#sweep(now);
    const own = this.#window(policy, bucket);
    if (ceiling === undefined) return own.hit(now);
    const shared = this.#window(ceiling.policy, ceiling.bucket);
    // Both or neither: a window without room refuses before the other counts.
    if (own.roomAt(now) === 0) return own.hit(now);
    if (shared.roomAt(now) === 0) return byCeiling(shared.hit(now));
    const ownDecision = own.hit(now);
    const sharedDecision = shared.hit(now);
    return sharedDecision.remaining < ownDecision.remaining ? byCeiling(sharedDecision) : ownDecision;
  }

  /** Buckets currently remembered, over all policies. */
  get size(): number {
    let size = 0;
    for (const buckets of this.#windows.values()) size += buckets.size;
    return size;
  }

  async close(): Promise<void> {
    this.#windows.clear();
  }

  #window(policy: RatePolicy, bucket: string): SlidingWindow {
    let buckets = this.#windows.get(policy.name);
    if (buckets === undefined) this.#windows.set(policy.name, (buckets = new Map()));
    let window = buckets.get(bucket);
    if (window === undefined) buckets.set(bucket, (window = new SlidingWindow(policy.limit, policy.windowMs)));
    return window;
  }

  #sweep(now: number): void {
    for (const buckets of this.#windows.values()) {
      for (const [bucket, window] of buckets) if (window.isEmptyAt(now)) buckets.delete(bucket);
    }
    this.#nextSweep = now + SWEEP_INTERVAL_MS;
  }
}

function byCeiling(decision: CountDecision): CountDecision {
  decision.byCeiling = true;
  return decision;
}
