// The browser session cookie, shared by the JSON /auth/* endpoints and the web pages.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../core/config.js';
import type { Database } from '../db/client.js';
import { createSession, deleteSession, endUserSessions, findSessionAccount, type User } from './users-store.js';

export const SESSION_COOKIE = 'akker_session';

/** Cookies are Secure when clients reach the service over https. */
export const secureCookies = (config: Config): boolean => config.publicUrl.startsWith('https:');

export const sessionToken = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE);

export interface SignedIn {
  user: User;
  /** The session cookie's value: the secret behind the pages' CSRF token and the new-key cookie. */
  sessionToken: string;
}

/** Who the session cookie sent belongs to; undefined without a live session. */
export async function signedInAs(c: Context, db: Database): Promise<SignedIn | undefined> {
  const token = sessionToken(c);
  const user = token === undefined ? undefined : await findSessionAccount(db, token);
  return user && token !== undefined ? { user, sessionToken: token } : undefined;
}

/** Starts a session and sets its cookie: HttpOnly, SameSite=Lax, Secure under https. */
export async function startSession(c: Context, db: Database, config: Config, userId: string): Promise<void> {
  const session = await createSession(db, userId);
  setCookie(c, SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: secureCookies(config),
    path: '/',
    expires: session.expiresAt,
  });
}

const clearSessionCookie = (c: Context, config: Config) => deleteCookie(c, SESSION_COOKIE, { path: '/', secure: secureCookies(config) });

/** Ends the session of the cookie sent (if any) and clears the cookie. */
export async function endSession(c: Context, db: Database, config: Config): Promise<void> {
  const token = sessionToken(c);
  if (token !== undefined) await deleteSession(db, token);
  clearSessionCookie(c, config);
}

/** Signs the user out everywhere: ends every session of theirs and clears the cookie; how many were live. */
export async function endEverySession(c: Context, db: Database, config: Config, userId: string): Promise<number> {
  const ended = await endUserSessions(db, userId);
  clearSessionCookie(c, config);
  return ended;
}
