// Who is making a request: a user, through one of their API keys or a browser session.

/** What a key may do: `read` (every read and every calculation) or `write` (all its owner may). */
export const keyAccesses = ['read', 'write'] as const;
export type KeyAccess = (typeof keyAccesses)[number];

/** What a key holds of its owner's access, fixed at creation. It only ever narrows the owner's roles. */
export interface KeyScope {
  access: KeyAccess;
  /** The only farms the key reaches; null: every farm its owner reaches. */
  farms: readonly string[] | null;
}

/** The scope of a session, and of a key created without one: all the owner's access. */
export const FULL_SCOPE: KeyScope = Object.freeze({ access: 'write', farms: null });

export interface Principal {
  userId: string;
  /** The API key used, or null when the request came with a session cookie. */
  keyId: string | null;
  /** What the key may do and where; a session holds the full scope. */
  scope: KeyScope;
  /**
   * False when the key was recognised from memory while other processes share
   * the database: it may have been revoked elsewhere a moment ago, so the first
   * statement of the request re-checks it (see access/key-check.ts).
   */
  verified: boolean;
}

/** A user signed in with a browser session: no key, all their access. */
export const sessionPrincipal = (userId: string): Principal => ({ userId, keyId: null, scope: FULL_SCOPE, verified: true });

/** Whether the principal's key still has to be checked: a key remembered as a hint, not yet verified. */
export const keyCheckNeeded = (principal: Principal): principal is Principal & { keyId: string } =>
  !principal.verified && principal.keyId !== null;

/** Whether the scope lets the key reach the farm at all (its owner's role there is another question). */
export const scopeReaches = (scope: KeyScope, farmId: string): boolean => scope.farms === null || scope.farms.includes(farmId);

/** A scope narrower than the owner's access in any way. */
export const isScoped = (scope: KeyScope): boolean => scope.access !== 'write' || scope.farms !== null;
