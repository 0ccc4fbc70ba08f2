// What the rate-limit middleware needs from a place that keeps windows: memory, Redis, or both.
import type { RatePolicy } from './policies.js';
import type { RateDecision } from './sliding-window.js';

export type { RateDecision };

export interface RateLimitStore {
  /**
   * Counts a request of `bucket` against `policy` if its window has room; a refusal changes nothing.
   * The memory store answers synchronously, which spares every request a promise.
   */
  hit(policy: RatePolicy, bucket: string): RateDecision | Promise<RateDecision>;
  /** Where the windows are kept now: Redis, or this process's memory (alone, or standing in for Redis). */
  readonly keptIn: 'redis' | 'memory';
  close(): Promise<void>;
}
