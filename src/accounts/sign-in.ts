// Checking an e-mail address and password through the sign-in throttle and starting the session: one
// path for the JSON endpoint and the sign-in page, which only turn its outcome into their own response.
import type { Context } from 'hono';
import { clientAddress } from './client-address.js';
import type { AccountDeps } from './deps.js';
import { verifyPassword } from './passwords.js';
import { startSession } from './session-cookie.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { findUserByEmail, type User } from './users-store.js';

export type SignInOutcome =
  | { kind: 'signed-in'; user: User }
  /** Unknown e-mail address or wrong password: deliberately not told apart. */
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type SignIn = (c: Context, credentials: { email: string; password: string }) => Promise<SignInOutcome>;

export function signInWith({ config, database }: AccountDeps, throttle: SignInThrottle): SignIn {
  return async (c, { email, password }) => {
    const admission = throttle.admit(email, clientAddress(c, config.trustProxy));
    if (!admission.admitted) return { kind: 'throttled', retryAfterSeconds: admission.retryAfterSeconds };
    const user = await findUserByEmail(database.db, email);
    if (!(await verifyPassword(user?.password_hash, password)) || !user) return { kind: 'refused' };
    admission.succeeded();
    await startSession(c, database.db, config, user.user_id);
    return { kind: 'signed-in', user: { user_id: user.user_id, email: user.email, name: user.name } };
  };
}
