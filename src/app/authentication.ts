// Authentication: exactly one API key header (or, where allowed, the session cookie) → a principal.
import type { Context, MiddlewareHandler } from 'hono';
import { findSessionUser } from '../accounts/users-store.js';
import { sessionToken } from '../accounts/session-cookie.js';
import { sessionPrincipal, type Principal } from '../core/principal.js';
import { DomainError } from '../core/domain-errors.js';
import type { ApiEnv } from '../http/env.js';
import { ApiError, unauthorized } from '../http/problem.js';
import { requestConnection, requestHeader } from '../http/request-headers.js';
import { isCrossOriginChange, isSafeMethod } from '../http/same-origin.js';
import type { AppDeps } from './deps.js';
import { matchedOperation } from './guards.js';
import { isServedOnRememberedKey } from '../access/remembered-key-routes.js';

function presentedKey(c: Context): string | null | undefined {
  const apiKey = requestHeader(c, 'x-api-key');
  const authorization = requestHeader(c, 'authorization');
  if (apiKey !== undefined && authorization !== undefined) {
    throw new ApiError('ambiguous-api-key', 'Send the API key in one header only: X-API-Key or Authorization: Bearer.');
  }
  if (apiKey !== undefined) return apiKey.trim();
  if (authorization === undefined) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return bearer?.[1] ?? null;
}

async function identify(c: Context, deps: AppDeps, allowSession: boolean): Promise<Principal> {
  const key = presentedKey(c);
  if (key === null) throw unauthorized();
  if (key !== undefined) {
    const principal = await deps.keys.resolve(key, !isSafeMethod(c.req.method) && !mayServeOnRememberedKey(c), requestConnection(c));
    if (!principal) throw unauthorized();
    return principal;
  }
  return identifyBySession(c, deps, allowSession);
}

/**
 * Whether a request that may change something may be served on a remembered key (remembered-key-routes.ts):
 * its route's handler says so, and it has no Idempotency-Key, whose reservation is a change made before
 * the handler runs.
 */
function mayServeOnRememberedKey(c: Context): boolean {
  if (requestHeader(c, 'idempotency-key') !== undefined) return false;
  const operation = matchedOperation(c, c.req.method);
  return operation !== undefined && isServedOnRememberedKey(operation.handler);
}

async function identifyBySession(c: Context, deps: AppDeps, allowSession: boolean): Promise<Principal> {
  const session = allowSession ? sessionToken(c) : undefined;
  if (session !== undefined) {
    const userId = await findSessionUser(deps.database.db, session);
    if (userId !== undefined) {
      // A cookie rides along with any site's request: a change from another origin is refused.
      if (isCrossOriginChange(c, deps.config.publicUrl)) {
        throw new ApiError('forbidden', 'This request came from another site and was refused.');
      }
      return sessionPrincipal(userId);
    }
  }
  throw unauthorized();
}

/**
 * Sets `principal` for the route. `isPublic` paths pass without one; `allowsSession` paths also take
 * the session cookie. A key recognised from memory is re-checked by the route's first statement; if a
 * route answered without doing so, the key is checked here before the response leaves, so a revoked
 * key is refused on its very next request. A request refused by the rate limit (429) is the exception:
 * it leaves no trace, no statement and no write, so a key revoked a moment ago may see 429 until its
 * window has room, then 401. Only an answered request counts as a use of its key (`last_used_at`).
 * `respond`: the problem+json response of an error, as the app's error handler makes it.
 */
export function authenticate(
  deps: AppDeps,
  paths: { isPublic: (path: string) => boolean; allowsSession: (path: string) => boolean },
  respond: (c: Context, error: ApiError) => Response,
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (paths.isPublic(c.req.path)) return next();
    const principal = await identify(c, deps, paths.allowsSession(c.req.path));
    c.set('principal', principal);
    await next();
    // A statement of the route found the key inactive: later requests with it are looked up again.
    if (c.error instanceof DomainError && c.error.code === 'unauthorized' && principal.keyId !== null) deps.keys.forget(principal.keyId);
    if (c.res.status === 429 || c.error !== undefined) return;
    if (principal.verified) return deps.keys.noteUse(principal);
    if (await deps.keys.confirm(principal)) return deps.keys.noteUse(principal);
    // The route's answer is replaced whole. Hono's way: unset it first, since a response set over
    // another takes the old one's header fields (its ETag, say).
    c.res = undefined;
    c.res = respond(c, unauthorized());
  };
}
