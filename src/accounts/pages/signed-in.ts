// Account pages send everyone not signed in to sign in.
import type { MiddlewareHandler } from 'hono';
import type { Database } from '../../db/client.js';
import { signedInAs, type SignedIn } from '../session-cookie.js';
import { SIGN_IN_PATH } from './paths.js';

export interface PageEnv {
  Variables: { account: SignedIn };
}

/**
 * Sets `account`, or sends the visitor to sign in and then back to `returnTo`
 * (by default the page asked for; a form post gives the page its form is on).
 */
export function requireSignedIn(db: Database, returnTo?: string): MiddlewareHandler<PageEnv> {
  return async (c, next) => {
    const account = await signedInAs(c, db);
    if (!account) return c.redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(returnTo ?? c.req.path)}`, 303);
    c.set('account', account);
    await next();
  };
}
