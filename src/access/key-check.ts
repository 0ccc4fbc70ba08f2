// Folds the re-check of a remembered API key into a request's first statement
// (see accounts/principal.ts), so that a shared database costs no extra round trip.
import { sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../accounts/principal.js';
import { unauthorized } from '../http/auth.js';

/** A boolean SQL expression: is the principal's key still active? Constant true once verified. */
export function keyStillActive(principal: Principal): SQL {
  if (principal.verified || principal.keyId === null) return sql`true`;
  return sql`exists (select 1 from api_keys k where k.key_id = ${principal.keyId} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()))`;
}

/** Applies the answer of `keyStillActive`: an inactive key ends the request with 401. */
export function settleKeyCheck(principal: Principal, keyActive: boolean): void {
  if (!keyActive) throw unauthorized();
  principal.verified = true;
}
