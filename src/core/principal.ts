// Who is making a request: a user, through one of their API keys or a browser session.
export interface Principal {
  userId: string;
  /** The API key used, or null when the request came with a session cookie. */
  keyId: string | null;
  /**
   * False when the key was recognised from memory while other processes share
   * the database: it may have been revoked elsewhere a moment ago, so the first
   * statement of the request re-checks it (see access/key-check.ts).
   */
  verified: boolean;
}

/** Whether the principal's key still has to be checked: a key remembered as a hint, not yet verified. */
export const keyCheckNeeded = (principal: Principal): principal is Principal & { keyId: string } =>
  !principal.verified && principal.keyId !== null;
