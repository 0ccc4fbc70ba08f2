// What the rate-limit middleware needs from a place that keeps windows: memory, Redis, or both.
import type { RatePolicy } from './policies.js';
import type { RateDecision } from './sliding-window.js';

/** A window to count in beside a request's own: its user's ceiling. */
export interface CeilingWindow {
  policy: RatePolicy;
  bucket: string;
}

/** A decision; `byCeiling`: its figures are the ceiling window's (it refused, or it has less room left). */
export type CountDecision = RateDecision & { byCeiling?: boolean };

export type { RateDecision };

export interface RateLimitWindows {
  /**
   * Counts a request of `bucket` against `policy`, and against `ceiling` when given, if every one
   * of those windows has room; a refusal changes nothing in any of them. The decision describes
   * the window that refused, or the one with the least room left (the request's own on a tie).
   * The memory store answers at once, the others in time: a caller awaits what it is given.
   */
  hit(policy: RatePolicy, bucket: string, ceiling?: CeilingWindow): CountDecision | Promise<CountDecision>;
  /** Where the windows are kept now: Redis, or this process's memory (alone, or standing in for Redis). */
  readonly keptIn: 'redis' | 'memory';
  close(): Promise<void>;
}
