// The rate limit of an authenticated /api request: 429 before any other work, and the
// RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers) on every answer.
import type { Context, Next } from 'hono';
import { addAnswerHeader } from '../answer-headers.js';
import type { AppEnv, Check } from '../context.js';
import { ApiError } from '../problem.js';
import { categoryOf, type RatePolicies, type RatePolicy } from './policies.js';
import type { RateDecision, RateLimitStore } from './store.js';

/** Whole seconds, rounded up and at least 1 (CONTRACT.md's Retry-After). */
const wholeSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

// Joined, not concatenated: a concatenation is a rope (a ConsString), which Node's check of every field
// value first copies flat in V8's runtime (about 1,500 instructions an answer; the join costs 1,000).
const rateLimitField = (policy: RatePolicy, remaining: number, resetMs: number) =>
  ['"', policy.name, '";r=', remaining, ';t=', wholeSeconds(resetMs)].join('');

function limitExceeded(policy: RatePolicy, resetMs: number, perKey: boolean): ApiError {
  const retryAfter = wholeSeconds(resetMs);
  return new ApiError(
    'rate-limit-exceeded',
    `More than ${policy.limit} ${policy.name} requests in ${wholeSeconds(policy.windowMs)} s for this ${perKey ? 'API key' : 'user'}; retry in ${retryAfter} s.`,
    {
      headers: {
        'retry-after': String(retryAfter),
        'ratelimit-policy': policy.header,
        ratelimit: rateLimitField(policy, 0, resetMs),
      },
    },
  );
}

/**
 * Runs after authentication: the bucket is the API key, or the user for a session request.
 * A refused request is answered here, before validation and before any database statement.
 */
export function rateLimit(store: RateLimitStore, policies: RatePolicies, respond: (c: Context, error: ApiError) => Response): Check {
  const admit = (c: Context<AppEnv>, next: Next, policy: RatePolicy, decision: RateDecision): Promise<void> => {
    if (!decision.allowed) {
      // Set, not returned: the limiter also runs inside the authentication middleware's next().
      c.res = respond(c, limitExceeded(policy, decision.resetMs, c.get('principal').keyId !== null));
      return Promise.resolve();
    }
    // On the answer whatever it turns out to be, an error included.
    addAnswerHeader(c, 'ratelimit-policy', policy.header);
    addAnswerHeader(c, 'ratelimit', rateLimitField(policy, decision.remaining, decision.resetMs));
    return next();
  };
  return (c, next) => {
    const policy = policies[categoryOf(c.req.method, c.req.path)];
    const { keyId, userId } = c.get('principal');
    const decision = store.hit(policy, keyId ?? `user:${userId}`);
    return decision instanceof Promise ? decision.then((decided) => admit(c, next, policy, decided)) : admit(c, next, policy, decision);
  };
}
