// Who is signed in, from the session cookie; account pages send everyone else to sign in.
import type { Context, MiddlewareHandler } from 'hono';
import type { Database } from '../../db/client.js';
import { sessionToken } from '../session-cookie.js';
import { findSessionAccount, type User } from '../users-store.js';
import { SIGN_IN_PATH } from './paths.js';

export interface SignedIn {
  user: User;
  /** The session cookie's value: the secret behind the CSRF token and the new-key cookie. */
  sessionToken: string;
}

export interface PageEnv {
  Variables: { account: SignedIn };
}

export async function signedInAs(c: Context, db: Database): Promise<SignedIn | undefined> {
  const token = sessionToken(c);
  const user = token === undefined ? undefined : await findSessionAccount(db, token);
  return user && token !== undefined ? { user, sessionToken: token } : undefined;
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
