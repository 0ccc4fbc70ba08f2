// Making an account and starting its session: one path for the JSON endpoint and the sign-up page,
// which only turn its outcome into their own response.
import type { Context } from 'hono';
import { clientAddress } from './client-address.js';
import type { AccountDeps } from './deps.js';
import { hashPassword } from './passwords.js';
import { startSession } from './session-cookie.js';
import { SignUpThrottle } from './sign-up-throttle.js';
import { createUser, type User } from './users-store.js';

export type SignUpOutcome =
  | { kind: 'signed-up'; user: User }
  | { kind: 'closed' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** An account with this e-mail address exists already. */
  | { kind: 'taken' };

/** Fields already valid by the caller's schema, which holds the password rules of passwords.ts. */
export type SignUp = (c: Context, fields: { email: string; password: string; name: string }) => Promise<SignUpOutcome>;

export function signUpWith({ config, database, rateLimits }: AccountDeps): SignUp {
  const throttle = new SignUpThrottle(rateLimits, config.signupLimitPerHour);
  return async (c, { email, password, name }) => {
    if (config.signup === 'closed') return { kind: 'closed' };
    const admission = await throttle.admit(clientAddress(c, config.trustProxy));
    if (!admission.admitted) return { kind: 'throttled', retryAfterSeconds: admission.retryAfterSeconds };
    const user = await createUser(database.db, email, name, await hashPassword(password));
    if (!user) return { kind: 'taken' };
    await startSession(c, database.db, config, user.user_id);
    return { kind: 'signed-up', user };
  };
}
