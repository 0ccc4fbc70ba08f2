// Rate-limit windows in this process's memory: exact for one process (the default store).
import type { RatePolicy } from './policies.js';
import { SlidingWindow, type RateDecision } from './sliding-window.js';
import type { RateLimitStore } from './store.js';

/** How often buckets whose window has emptied are forgotten, so idle keys cost no memory. */
const SWEEP_INTERVAL_MS = 60_000;

export type Clock = () => number;

/** A monotonic clock: a wall-clock step (NTP) must not stretch or shrink a window. */
const monotonicClock: Clock = () => performance.now();

export class MemoryStore implements RateLimitStore {
  readonly keptIn = 'memory';
  readonly #windows = new Map<RatePolicy, Map<string, SlidingWindow>>();
  #nextSweep: number;

  constructor(private readonly now: Clock = monotonicClock) {
    this.#nextSweep = now() + SWEEP_INTERVAL_MS;
  }

  hit(policy: RatePolicy, bucket: string): RateDecision {
    const now = this.now();
    if (now >= this.#nextSweep) this.#sweep(now);
    let buckets = this.#windows.get(policy);
    if (buckets === undefined) this.#windows.set(policy, (buckets = new Map()));
    let window = buckets.get(bucket);
    if (window === undefined) buckets.set(bucket, (window = new SlidingWindow(policy.limit, policy.windowMs)));
    return window.hit(now);
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

  #sweep(now: number): void {
    for (const buckets of this.#windows.values()) {
      for (const [bucket, window] of buckets) if (window.isEmptyAt(now)) buckets.delete(bucket);
    }
    this.#nextSweep = now + SWEEP_INTERVAL_MS;
  }
}
