// Random identifiers and secrets, and the hash under which a secret is stored.
import { hash, randomBytes } from 'node:crypto';

/** An opaque, unguessable, URL-safe identifier (128 random bits). */
export const newId = (): string => randomBytes(16).toString('base64url');

/** A URL-safe secret of 256 random bits (43 characters). */
export const newSecret = (): string => randomBytes(32).toString('base64url');

// The one-shot hash: every API request hashes its key, and this is a third of createHash's cost.
export const sha256 = (value: string): string => hash('sha256', value, 'base64url');
