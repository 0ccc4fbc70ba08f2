// Cross-site request forgery: every form carries a token that only our own pages
// can know, and a post must not name another origin (http/same-origin.ts).
//
// The token is an HMAC of the secret the browser already holds in an HttpOnly
// cookie: the session token once signed in, a random visitor secret before
// (sign-in and sign-up forms). So it is per session, needs no storage, no
// server-wide secret to configure and share between processes, changes with
// every new session, and reveals nothing about the session token.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { newSecret } from '../../core/secrets.js';

export const CSRF_FIELD = '_csrf';
const VISITOR_COOKIE = 'akker_visitor';

export const csrfTokenFor = (secret: string): string => createHmac('sha256', secret).update('akker form token').digest('base64url');

export function tokensMatch(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const readVisitorSecret = (c: Context, secure: boolean) => (secure ? getCookie(c, VISITOR_COOKIE, 'host') : getCookie(c, VISITOR_COOKIE));

/**
 * The form token of a signed-out visitor, for a form about to be shown: a
 * visitor secret is made and set first when there is none. Under https the
 * cookie is `__Host-` prefixed, so no other host (a sibling subdomain) can plant one.
 */
export function visitorFormToken(c: Context, secure: boolean): string {
  let secret = readVisitorSecret(c, secure);
  if (secret === undefined) {
    secret = newSecret();
    setCookie(c, VISITOR_COOKIE, secret, {
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure,
      ...(secure ? { prefix: 'host' as const } : {}),
    });
  }
  return csrfTokenFor(secret);
}

/** The token a signed-out visitor's post must carry; undefined when the visitor has no secret. */
export function expectedVisitorToken(c: Context, secure: boolean): string | undefined {
  const secret = readVisitorSecret(c, secure);
  return secret === undefined ? undefined : csrfTokenFor(secret);
}
