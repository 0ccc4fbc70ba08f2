// The rate limit of an authenticated /api request: 429 before any other work, and the
// RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers) on every response.
import { addResponseHeader } from '../http/response-headers.js';
import type { ApiEnv } from '../http/env.js';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../http/problem.js';
import type { Principal } from '../core/principal.js';
import { countRequest, type Counted } from '../rate-limit/count.js';
import { categoryOf, type RatePolicies, type RatePolicy } from '../rate-limit/policies.js';
import type { RateLimitWindows } from '../rate-limit/windows.js';

/** Whole seconds, rounded up and at least 1 (the documented Retry-After). */
const wholeSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

// Joined, not concatenated: Node flattens a concatenated value before it checks it (docs/performance.md).
const rateLimitField = (policy: RatePolicy, remaining: number, resetMs: number) =>
  ['"', policy.name, '";r=', remaining, ';t=', wholeSeconds(resetMs)].join('');

/** Whose window refused: the request's key, the session's user, or the user's ceiling over all their keys. */
const windowOwner = (perKey: boolean, byCeiling: boolean | undefined) =>
  byCeiling ? 'user, across all their API keys' : perKey ? 'API key' : 'user';

function limitExceeded(policy: RatePolicy, resetMs: number, owner: string): ApiError {
  const retryAfter = wholeSeconds(resetMs);
  return new ApiError(
    'rate-limit-exceeded',
    `More than ${policy.limit} ${policy.category} requests in ${wholeSeconds(policy.windowMs)} s for this ${owner}; retry in ${retryAfter} s.`,
    {
      headers: {
        'retry-after': String(retryAfter),
        'ratelimit-policy': policy.header,
        ratelimit: rateLimitField(policy, 0, resetMs),
      },
    },
  );
}

/** The 429 of a refused count. */
export const refusal = ({ decision, policy }: Counted, perKey: boolean): ApiError =>
  limitExceeded(policy, decision.resetMs, windowOwner(perKey, decision.byCeiling));

/**
 * Runs after authentication: the bucket is the API key, or the user for a session request, and with
 * `ceilings` the user's ceiling as well. A refused request is answered here, before validation and
 * before any database statement. A request without a principal (the public description) is not counted.
 */
export function rateLimit(store: RateLimitWindows, policies: RatePolicies, ceilings?: RatePolicies): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const principal = c.get('principal') as Principal | undefined;
    if (principal === undefined) return next();
    const counted = await countRequest(store, policies, ceilings, principal, categoryOf(c.req.method, c.req.path));
    if (!counted.decision.allowed) throw refusal(counted, principal.keyId !== null);
    // On the response whatever it turns out to be, an error included.
    addResponseHeader(c, 'ratelimit-policy', counted.policy.header);
    addResponseHeader(c, 'ratelimit', rateLimitField(counted.policy, counted.decision.remaining, counted.decision.resetMs));
    await next();
  };
}
