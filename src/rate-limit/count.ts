// One request counted in the rate-limit windows of its caller: its key's (or, for a session, its
// user's) and, with ceilings, its user's over all their keys, both or neither.
import type { Principal } from '../core/principal.js';
import type { RateCategory, RatePolicies, RatePolicy } from './policies.js';
import type { CountDecision, RateLimitWindows } from './windows.js';

/** A request's count: the decision, and the policy of the window it describes. */
export interface Counted {
  decision: CountDecision;
  policy: RatePolicy;
}

/**
 * Counts a request of `principal` in `category`: in the window of its key (or, for a session, of its
 * user) and, when there are ceilings, in its user's ceiling, both or neither.
 */
export async function countRequest(
  windows: RateLimitWindows,
  policies: RatePolicies,
  ceilings: RatePolicies | undefined,
  { keyId, userId }: Principal,
  category: RateCategory,
): Promise<Counted> {
  const policy = policies[category];
  const ceiling = ceilings?.[category];
  const bucket = keyId ?? `user:${userId}`;
  const decision = await (ceiling === undefined
    ? windows.hit(policy, bucket)
    : windows.hit(policy, bucket, { policy: ceiling, bucket: userId }));
  return { decision, policy: decision.byCeiling && ceiling !== undefined ? ceiling : policy };
}
