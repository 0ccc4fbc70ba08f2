// Entity tags of the records the API returns, and the If-Match check of a write. A tag is a digest of
// the record's JSON as answered: it moves with every change of what a client sees (updated_at moves
// with every update), and it is strong, since equal tags mean equal answers.
import { hash } from 'node:crypto';
import { DomainError } from './domain-errors.js';

/** The quoted entity tag of a response's JSON text. */
export const entityTagOfJson = (json: string): string => `"${hash('sha256', json, 'base64url')}"`;

/** The entity tag of a record as the API answers it. */
export const entityTagOf = (record: unknown): string => entityTagOfJson(JSON.stringify(record));

/** What an If-Match field asks of the record a write changes: that it exists (`*`), or that it has one of these tags. */
export type Precondition = '*' | readonly string[];

/**
 * Refuses the write (precondition-failed) unless the record, read by `readCurrent` inside the write's
 * transaction, after the farm's lock, still has one of the tags the client knows: nothing can change
 * it between this check and the write. The record exists here (the access check under the lock found
 * it), so `*` always holds. Tags are compared strongly: a weak one (W/"…") never matches.
 */
export async function assertUnchanged(kind: string, precondition: Precondition | undefined, readCurrent: () => Promise<unknown>) {
  if (precondition === undefined || precondition === '*') return;
  const current = entityTagOf(await readCurrent());
  if (!precondition.includes(current)) {
    throw new DomainError(
      'precondition-failed',
      `The ${kind} has changed since the version you sent in If-Match; its ETag is now ${current}. Read it again and reapply your change.`,
    );
  }
}
