// Password hashing with argon2id (OWASP parameters: m=19 MiB, t=2, p=1).
import { hash, verify } from '@node-rs/argon2';
import { commonPasswords } from './common-passwords.js';

export const PASSWORD_MIN_LENGTH = 8;
// Long enough for any passphrase, short enough that hashing stays cheap.
export const PASSWORD_MAX_LENGTH = 1024;

/** Spaces, tabs, line breaks and the like only: however long, nothing to guess. */
export const isBlankPassword = (password: string): boolean => password.trim() === '';

/** One of the passwords tried first by anyone guessing, in any mix of upper and lower case. */
export const isCommonPassword = (password: string): boolean => commonPasswords.has(password.toLowerCase());

export const hashPassword = (password: string) => hash(password);

// Compared against when the e-mail is unknown, so that the response takes as long as for a wrong password.
const decoyHash = hash('akker-decoy-password-not-used-by-anyone');

export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (storedHash === undefined) {
    await verify(await decoyHash, password);
    return false;
  }
  return verify(storedHash, password);
}
