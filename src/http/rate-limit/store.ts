// What the rate-limit middleware needs from a place that keeps windows: memory, Redis, or both.
import type { RatePolicy } from './policies.js';
import type { RateDecision } from './sliding-window.js';

export type { RateDecision };

export interface RateLimitStore {
  /** Counts a request of `bucket` against `policy` if its window has room; a refusal changes nothing. */
  hit(policy: RatePolicy, bucket: string): Promise<RateDecision>;
  close(): Promise<void>;
}
