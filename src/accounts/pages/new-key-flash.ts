// Carries a newly created raw key from the create post to the page that shows it,
// once. The page is reached by a redirect (so a reload never creates a second
// key), and the key travels in a short-lived cookie sealed with AES-256-GCM under
// a key derived from the session token: the raw key is never stored on the server,
// works whichever process serves the next request, and is useless without the session.
// Once means once: the key's row holds a one-time record that the page clears as it
// shows the key, so the same cookie sent again (a copy of it, say) shows nothing.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Database } from '../../db/client.js';
import { allowKeyReveal, takeKeyReveal } from '../api-keys-store.js';
import type { SignedIn } from '../session-cookie.js';
import { API_KEYS_PATH } from './paths.js';

const COOKIE = 'akker_new_key';
const MAX_AGE_SECONDS = 300;

export interface NewKey {
  id: string;
  name: string;
  key: string;
}

const sealingKey = (sessionToken: string) => createHmac('sha256', sessionToken).update('akker new key').digest();

export async function holdNewKey(c: Context, db: Database, sessionToken: string, secure: boolean, newKey: NewKey): Promise<void> {
  await allowKeyReveal(db, newKey.id, MAX_AGE_SECONDS);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(sessionToken), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(newKey), 'utf8'), cipher.final()]);
  setCookie(c, COOKIE, Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url'), {
    httpOnly: true,
    sameSite: 'Strict',
    secure,
    path: API_KEYS_PATH,
    maxAge: MAX_AGE_SECONDS,
  });
}

function unseal(value: string, sessionToken: string): NewKey | undefined {
  try {
    const bytes = Buffer.from(value, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(sessionToken), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as NewKey;
  } catch {
    return undefined; // sealed for another session, or tampered with
  }
}

/** The key held for this session, if not shown yet; the cookie is removed and the key marked shown as it is read. */
export async function takeNewKey(c: Context, db: Database, { user, sessionToken }: SignedIn, secure: boolean): Promise<NewKey | undefined> {
  const value = getCookie(c, COOKIE);
  if (value === undefined) return undefined;
  deleteCookie(c, COOKIE, { path: API_KEYS_PATH, secure });
  const newKey = unseal(value, sessionToken);
  return newKey && (await takeKeyReveal(db, user.user_id, newKey.id)) ? newKey : undefined;
}
