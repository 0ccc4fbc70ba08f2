// The rate limit of an authenticated /api request: 429 before any other work, and the
// RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers) on every answer.
import type { Context, Next } from 'hono';
import { addAnswerHeader } from '../answer-headers.js';
import type { AppEnv, Check } from '../context.js';
import { ApiError } from '../problem.js';
import type { Principal } from '../../accounts/principal.js';
import { categoryOf, type RateCategory, type RatePolicies, type RatePolicy } from './policies.js';
import type { CountDecision, RateLimitStore } from './store.js';

/** Whole seconds, rounded up and at least 1 (the documented Retry-After). */
const wholeSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

// Joined, not concatenated: a concatenation is a rope (a ConsString), which Node's check of every field
// value first copies flat in V8's runtime (about 1,500 instructions an answer; the join costs 1,000).
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

/** A request's count: the decision, and the policy of the window it describes. */
export interface Counted {
  decision: CountDecision;
  policy: RatePolicy;
}

/**
 * Counts a request of `principal` in `category`: in the window of its key (or, for a session, of its
 * user) and, when there are ceilings, in its user's ceiling, both or neither.
 */
export function countRequest(
  store: RateLimitStore,
  policies: RatePolicies,
  ceilings: RatePolicies | undefined,
  { keyId, userId }: Principal,
  category: RateCategory,
): Counted | Promise<Counted> {
  const policy = policies[category];
  const ceiling = ceilings?.[category];
  const bucket = keyId ?? `user:${userId}`;
  const decision = ceiling === undefined ? store.hit(policy, bucket) : store.hit(policy, bucket, { policy: ceiling, bucket: userId });
  return decision instanceof Promise
    ? decision.then((decided) => described(decided, policy, ceiling))
    : described(decision, policy, ceiling);
}

const described = (decision: CountDecision, policy: RatePolicy, ceiling: RatePolicy | undefined): Counted => ({
  decision,
  policy: decision.byCeiling && ceiling !== undefined ? ceiling : policy,
});

/** The 429 of a refused count. */
export const refusal = ({ decision, policy }: Counted, perKey: boolean): ApiError =>
  limitExceeded(policy, decision.resetMs, windowOwner(perKey, decision.byCeiling));

/**
 * Runs after authentication: the bucket is the API key, or the user for a session request, and with
 * `ceilings` the user's ceiling as well. A refused request is answered here, before validation and
 * before any database statement.
 */
export function rateLimit(
  store: RateLimitStore,
  policies: RatePolicies,
  respond: (c: Context, error: ApiError) => Response,
  ceilings?: RatePolicies,
): Check {
  const admit = (c: Context<AppEnv>, next: Next, counted: Counted): Promise<void> => {
    const { decision, policy } = counted;
    if (!decision.allowed) {
      // Set, not returned: the limiter also runs inside the authentication middleware's next().
      c.res = respond(c, refusal(counted, c.get('principal').keyId !== null));
      return Promise.resolve();
    }
    // On the answer whatever it turns out to be, an error included.
    addAnswerHeader(c, 'ratelimit-policy', policy.header);
    addAnswerHeader(c, 'ratelimit', rateLimitField(policy, decision.remaining, decision.resetMs));
    return next();
  };
  return (c, next) => {
    const counted = countRequest(store, policies, ceilings, c.get('principal'), categoryOf(c.req.method, c.req.path));
    return counted instanceof Promise ? counted.then((decided) => admit(c, next, decided)) : admit(c, next, counted);
  };
}
