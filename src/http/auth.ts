// Authentication: exactly one API key header (or, where allowed, the session cookie) → a principal.
import type { Context, Next } from 'hono';
import { getCookie } from 'hono/cookie';
import { findSessionUser } from '../accounts/users-store.js';
import type { Principal } from '../accounts/principal.js';
import type { AppDeps, AppEnv, Check } from './context.js';
import { ApiError, unauthorized } from './problem.js';
import { DomainError } from '../domain-errors.js';
import { requestConnection, requestHeader } from './request-headers.js';

export const SESSION_COOKIE = 'akker_session';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

function presentedKey(c: Context): string | null | undefined {
  const apiKey = requestHeader(c, 'x-api-key');
  const authorization = requestHeader(c, 'authorization');
  if (apiKey !== undefined && authorization !== undefined) {
    throw new ApiError('ambiguous-api-key', 'Send the API key in one header only: X-API-Key or Authorization: Bearer.');
  }
  if (apiKey !== undefined) return apiKey.trim();
  if (authorization === undefined) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return bearer ? bearer[1]! : null;
}

/** Browser requests that change something must come from our own pages. */
function assertSameOrigin(c: Context, publicUrl: string): void {
  const origin = c.req.header('origin');
  if (origin === undefined || SAFE_METHODS.has(c.req.method)) return;
  if (origin !== new URL(publicUrl).origin && origin !== new URL(c.req.url).origin) {
    throw new ApiError('forbidden', 'This request came from another site and was refused.');
  }
}

/** The principal of the request; synchronous for a remembered key, the common case. */
function identify(c: Context, deps: AppDeps, allowSession: boolean): Principal | Promise<Principal> {
  const key = presentedKey(c);
  if (key === null) throw unauthorized();
  if (key !== undefined) {
    const found = deps.keys.resolve(key, !SAFE_METHODS.has(c.req.method), requestConnection(c));
    return found instanceof Promise ? found.then(orUnauthorized) : found;
  }
  return identifyBySession(c, deps, allowSession);
}

function orUnauthorized(principal: Principal | null): Principal {
  if (!principal) throw unauthorized();
  return principal;
}

async function identifyBySession(c: Context, deps: AppDeps, allowSession: boolean): Promise<Principal> {
  const session = allowSession ? getCookie(c, SESSION_COOKIE) : undefined;
  if (session !== undefined) {
    const userId = await findSessionUser(deps.database.db, session);
    if (userId !== undefined) {
      assertSameOrigin(c, deps.config.publicUrl);
      return { userId, keyId: null, verified: true };
    }
  }
  throw unauthorized();
}

/**
 * Sets `principal` for the route. A key recognised from memory is re-checked
 * by the route's first statement; if a route answered without doing so, the
 * key is checked here before the answer leaves, so a revoked key is refused on
 * its very next request. A request refused by the rate limit (429) is the
 * exception: it leaves no trace, no statement and no write, so a key revoked a
 * moment ago may see 429 until its window has room, then 401.
 * Only an answered request counts as a use of its key (`last_used_at`).
 */
export function authenticate(deps: AppDeps, respond: (c: Context, error: ApiError) => Response, options: { allowSession: boolean }): Check {
  // Promise chains, not async functions: on the hot path (a remembered key, a verified principal) an
  // async function would cost a promise and an await more per request.
  const answered = (c: Context<AppEnv>, principal: Principal): void | Promise<void> => {
    if (c.res.status === 429) return;
    if (principal.verified) return deps.keys.noteUse(principal);
    return deps.keys.confirm(principal).then((active) => {
      if (active) return deps.keys.noteUse(principal);
      c.res = undefined;
      c.res = respond(c, unauthorized());
    });
  };
  // A statement of the route found the key inactive: later requests with it are looked up again.
  const refused = (principal: Principal, error: unknown): never => {
    if (error instanceof DomainError && error.code === 'unauthorized' && principal.keyId !== null) deps.keys.forget(principal.keyId);
    throw error;
  };
  const serve = (c: Context<AppEnv>, next: Next, principal: Principal) => {
    c.set('principal', principal);
    return next().then(
      () => answered(c, principal),
      (error: unknown) => refused(principal, error),
    );
  };
  return (c, next) => {
    const identified = identify(c, deps, options.allowSession);
    return identified instanceof Promise ? identified.then((principal) => serve(c, next, principal)) : serve(c, next, identified);
  };
}
