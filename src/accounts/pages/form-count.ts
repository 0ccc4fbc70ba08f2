// A form that changes something counts in the rate-limit windows as its API twin does: in the window of
// the user's session and in their ceiling over all their keys, so the pages are no way around the limits.
import type { Context } from 'hono';
import { sessionPrincipal } from '../../core/principal.js';
import { countRequest, type Counted } from '../../rate-limit/count.js';
import { ratePolicies, userCeilings, type RateCategory } from '../../rate-limit/policies.js';
import type { AccountDeps } from '../deps.js';

export const minutesInWords = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
};

/** Counts a form post of the user in `category` (as the API counts the request it stands for). */
export function formCounter({ config, rateLimits }: AccountDeps) {
  const policies = ratePolicies(config.rateLimits);
  const ceilings = userCeilings(config.rateLimits, config.rateLimitUserFactor);
  return (userId: string, category: RateCategory) => countRequest(rateLimits, policies, ceilings, sessionPrincipal(userId), category);
}

/** Sets Retry-After for a refused count and says, for people, how long to wait. */
export function tooManyRequests(c: Context, { decision }: Counted): string {
  const seconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
  c.header('retry-after', String(seconds));
  const wait = seconds < 60 ? `${seconds} seconds` : minutesInWords(seconds);
  return `You made more requests in the last minute than this server allows. Wait ${wait} and try again.`;
}
