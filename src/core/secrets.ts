// Random identifiers and secrets, and the hash under which a secret is stored.
import { hash, randomBytes } from 'node:crypto';

// Identifiers are taken from a pool of random bytes, filled a few kilobytes at a time: a call of
// randomBytes for each one cost a write some 30 µs. Each byte serves one identifier only.
const POOL_BYTES = 4096;
const ID_BYTES = 16;
let pool = randomBytes(POOL_BYTES);
let taken = 0;

/** An opaque, unguessable, URL-safe identifier (128 random bits). */
export function newId(): string {
  if (taken + ID_BYTES > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  const id = pool.toString('base64url', taken, taken + ID_BYTES);
  taken += ID_BYTES;
  return id;
}

/** A URL-safe secret of 256 random bits (43 characters). */
export const newSecret = (): string => randomBytes(32).toString('base64url');

// The one-shot hash: every API request hashes its key, and this is a third of createHash's cost.
export const sha256 = (value: string): string => hash('sha256', value, 'base64url');
