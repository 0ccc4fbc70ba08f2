// Checking an e-mail address and password, through the sign-in throttle: one
// path for the JSON endpoint and the sign-in page.
import type { Database } from '../db/client.js';
import { verifyPassword } from './passwords.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { findUserByEmail, type User } from './users-store.js';

export type SignInOutcome =
  | { kind: 'signed-in'; user: User }
  /** Unknown e-mail address or wrong password: deliberately not told apart. */
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export async function checkSignIn(
  db: Database,
  throttle: SignInThrottle,
  credentials: { email: string; password: string },
  clientAddress: string,
): Promise<SignInOutcome> {
  const admission = throttle.admit(credentials.email, clientAddress);
  if (!admission.admitted) return { kind: 'throttled', retryAfterSeconds: admission.retryAfterSeconds };
  const user = await findUserByEmail(db, credentials.email);
  if (!(await verifyPassword(user?.password_hash, credentials.password)) || !user) return { kind: 'refused' };
  admission.succeeded();
  return { kind: 'signed-in', user: { user_id: user.user_id, email: user.email, name: user.name } };
}
