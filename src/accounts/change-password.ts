// Changing the password: one path for the JSON endpoint and the account page. The current password is
// checked as a sign-in checks it, through the same throttle, so that the form is no way to guess it.
// Every session of the account ends with the old password, a stolen cookie's included, and the client
// that asked goes on under a new session (a new cookie), as one that signed in with the new password.
import type { Context } from 'hono';
import type { AccountDeps } from './deps.js';
import { hashPassword } from './passwords.js';
import { startSession, type SignedIn } from './session-cookie.js';
import { credentialCheckWith } from './sign-in.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { replacePassword } from './users-store.js';

export type ChangePasswordOutcome =
  /** `otherSessionsEnded`: the live sessions ended besides the one of the request. */
  | { kind: 'changed'; otherSessionsEnded: number }
  /** The current password sent is not the account's. */
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** `replacement` is valid by the caller's schema, which holds the password rules of passwords.ts. */
export type ChangePassword = (
  c: Context,
  account: SignedIn,
  passwords: { current: string; replacement: string },
) => Promise<ChangePasswordOutcome>;

export function changePasswordWith(deps: AccountDeps, throttle: SignInThrottle): ChangePassword {
  const { config, database } = deps;
  const check = credentialCheckWith(deps, throttle);
  return async (c, { user, sessionToken }, { current, replacement }) => {
    const checked = await check(c, { email: user.email, password: current });
    if (checked.kind !== 'verified') return checked;
    const hashes = { verified: checked.passwordHash, replacement: await hashPassword(replacement) };
    const ended = await replacePassword(database.db, user.user_id, hashes, sessionToken);
    // Another change came first: the password sent is no longer the account's.
    if (ended === undefined) return { kind: 'refused' };
    await startSession(c, database.db, config, user.user_id);
    return { kind: 'changed', otherSessionsEnded: ended };
  };
}
