// Checking an e-mail address and password through the sign-in throttle, and starting the session: one
// path for the JSON endpoint and the sign-in page, which only turn its outcome into their own response.
// Changing a password checks the current one the same way (change-password.ts), so that the form is
// no way around the throttle to guess it.
import type { Context } from 'hono';
import { clientAddress } from './client-address.js';
import type { AccountDeps } from './deps.js';
import { verifyPassword } from './passwords.js';
import { startSession } from './session-cookie.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { findUserByEmail, type User } from './users-store.js';

type Credentials = { email: string; password: string };

/** `refused`: unknown e-mail address or wrong password, deliberately not told apart. */
type Refusal = { kind: 'refused' } | { kind: 'throttled'; retryAfterSeconds: number };

export type CredentialCheck = { kind: 'verified'; user: User; passwordHash: string } | Refusal;

export type CheckCredentials = (c: Context, credentials: Credentials) => Promise<CredentialCheck>;

export function credentialCheckWith({ config, database }: AccountDeps, throttle: SignInThrottle): CheckCredentials {
  return async (c, { email, password }) => {
    const admission = throttle.admit(email, clientAddress(c, config.trustProxy));
    if (!admission.admitted) return { kind: 'throttled', retryAfterSeconds: admission.retryAfterSeconds };
    const user = await findUserByEmail(database.db, email);
    if (!(await verifyPassword(user?.password_hash, password)) || !user) return { kind: 'refused' };
    admission.succeeded();
    return { kind: 'verified', user: { user_id: user.user_id, email: user.email, name: user.name }, passwordHash: user.password_hash };
  };
}

export type SignInOutcome = { kind: 'signed-in'; user: User } | Refusal;

export type SignIn = (c: Context, credentials: Credentials) => Promise<SignInOutcome>;

export function signInWith(deps: AccountDeps, throttle: SignInThrottle): SignIn {
  const check = credentialCheckWith(deps, throttle);
  return async (c, credentials) => {
    const checked = await check(c, credentials);
    if (checked.kind !== 'verified') return checked;
    await startSession(c, deps.database.db, deps.config, checked.user.user_id);
    return { kind: 'signed-in', user: checked.user };
  };
}
