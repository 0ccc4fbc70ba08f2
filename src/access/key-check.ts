// Folds the re-check of a remembered API key into a request's first statement
// (see accounts/principal.ts), so that a shared database costs no extra round trip.
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { keyCheckNeeded, type Principal } from '../core/principal.js';
import { Statement } from '../db/statement.js';
import { DomainError } from '../core/domain-errors.js';

const keyIsActive = (keyId: string | Placeholder) =>
  sql`exists (select 1 from api_keys k where k.key_id = ${keyId} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()))`;

/** A boolean SQL expression: is the principal's key still active? Constant true once verified. */
export function keyStillActive(principal: Principal): SQL {
  return keyCheckNeeded(principal) ? keyIsActive(principal.keyId) : sql`true`;
}

/** The values every statement of `statementsCheckingKey` takes besides its own. */
export interface KeyCheckValues extends Record<string, unknown> {
  keyId: string | null;
}

/**
 * A hot statement in its two forms: `build` receives the boolean to select as `key_active`, constant
 * true for a verified principal, else the check of the placeholder `keyId`. Returns the form a principal needs.
 */
export function statementsCheckingKey<Row, Values extends KeyCheckValues>(name: string, build: (keyActive: SQL) => SQL) {
  const verified = new Statement<Row & { key_active: boolean }, Values>(name, build(sql`true`));
  const checking = new Statement<Row & { key_active: boolean }, Values>(
    `${name}_checking_key`,
    build(keyIsActive(sql.placeholder('keyId'))),
  );
  return (principal: Principal) => (keyCheckNeeded(principal) ? checking : verified);
}

/** Applies the response of `keyStillActive`: an inactive key ends the request with 401. */
export function settleKeyCheck(principal: Principal, keyActive: boolean): void {
  if (!keyActive) throw new DomainError('unauthorized', 'The API key is no longer active.');
  principal.verified = true;
}
