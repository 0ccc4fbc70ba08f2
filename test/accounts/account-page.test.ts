// The account page's password form, session list and "Sign out everywhere" button. The stolen-cookie
// case throughout: another browser signed in to the same account is signed out by either.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { csrfOf, FormClient, ORIGIN, signedUpClient } from './form-client.js';

const ACCOUNT = '/account';
const PASSWORD = '/account/password';
const EVERYWHERE = '/account/sign-out-everywhere';

describe.each(storageKinds)('account page on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  /** A person signed up in one browser and signed in in another (the one a thief holds the cookie of). */
  async function twoBrowsers() {
    const { client, email, password } = await signedUpClient(t.app);
    const other = new FormClient(t.app);
    expect((await other.submit('/signin', '/signin', { email, password })).status).toBe(303);
    return { client, other, email, password };
  }

  const isSignedIn = async (client: FormClient) => (await client.get(ACCOUNT)).status === 200;
  const sessionRows = (html: string) => [...html.matchAll(/<tr><td><time datetime=/g)].length;

  it('lists the sessions of the account with when each was last used, this browser marked', async () => {
    const { client, email } = await twoBrowsers();
    await t.database.db.execute(
      sql`update sessions set last_used_at = '2021-05-06T07:08:00Z' where user_id = (select user_id from users where email = ${email})`,
    );
    // Opening the page is a use of this browser's session, noted as it is more than a minute old; the other's stays.
    const page = await client.get(ACCOUNT);
    expect(page.html).toContain('Where you are signed in');
    expect(sessionRows(page.html)).toBe(2);
    const rows = [...page.html.matchAll(/<tr><td>.*?<\/tr>/gs)].map((m) => m[0]);
    const mine = rows.find((row) => row.includes('This browser'))!;
    const theirs = rows.find((row) => !row.includes('This browser'))!;
    expect(theirs).toContain('<time datetime="2021-05-06T07:08:00.000Z">2021-05-06 07:08 UTC</time>');
    const lastUsed = [...mine.matchAll(/datetime="([^"]+)"/g)][1]![1]!;
    expect(Date.now() - Date.parse(lastUsed)).toBeLessThan(60_000);
    expect(page.html).toContain('Sign out everywhere');
  });

  it('changes the password and signs every other browser out, and says so', async () => {
    const { client, other, email } = await twoBrowsers();
    const changed = await client.submit(ACCOUNT, PASSWORD, { current_password: 'correct horse battery', new_password: 'a new passphrase' });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe('/account?password-changed=1');
    expect(await isSignedIn(other)).toBe(false);
    const page = await client.get(changed.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Your password was changed, and every other session of your account was signed out.');
    expect(sessionRows(page.html)).toBe(1);
    expect(page.html).not.toContain('a new passphrase');
    const again = new FormClient(t.app);
    expect((await again.submit('/signin', '/signin', { email, password: 'correct horse battery' })).status).toBe(401);
    expect((await again.submit('/signin', '/signin', { email, password: 'a new passphrase' })).status).toBe(303);
  });

  it('refuses a wrong current password and a weak new one, changing nothing and echoing no password', async () => {
    const { client, other } = await twoBrowsers();
    const wrong = await client.submit(ACCOUNT, PASSWORD, { current_password: 'not it at all', new_password: 'a new passphrase' });
    expect(wrong.status).toBe(403);
    expect(wrong.html).toContain('This is not your current password.');
    expect(wrong.html).not.toContain('not it at all');
    expect(wrong.html).not.toContain('a new passphrase');
    const weak = await client.submit(ACCOUNT, PASSWORD, { current_password: 'correct horse battery', new_password: 'password' });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('This is one of the most common passwords');
    const empty = await client.submit(ACCOUNT, PASSWORD, {});
    expect(empty.html).toContain('Enter your current password.');
    expect(await isSignedIn(other)).toBe(true);
  });

  it('counts wrong current passwords with the sign-in throttle: the 11th try from an address is 429 whatever the password', async () => {
    const { email, password } = await signedUpClient(t.app);
    const client = new FormClient(t.app, '203.0.113.77');
    expect((await client.submit('/signin', '/signin', { email, password })).status).toBe(303);
    for (let i = 0; i < 10; i++) {
      expect((await client.submit(ACCOUNT, PASSWORD, { current_password: `guess ${i}`, new_password: 'a new passphrase' })).status).toBe(
        403,
      );
    }
    const refused = await client.submit(ACCOUNT, PASSWORD, { current_password: password, new_password: 'a new passphrase' });
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('Too many password attempts failed. Wait 15 minutes and try again.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
  });

  it('signs out everywhere: this browser and every other one', async () => {
    const { client, other } = await twoBrowsers();
    const done = await client.submit(ACCOUNT, EVERYWHERE, {});
    expect(done.status).toBe(200);
    expect(done.html).toContain('Signed out everywhere');
    expect(await isSignedIn(client)).toBe(false);
    expect(await isSignedIn(other)).toBe(false);
  });

  it('refuses either form without its token or from another site, and ends nothing', async () => {
    const { client, other } = await twoBrowsers();
    const csrf = csrfOf((await client.get(ACCOUNT)).html);
    const change = { current_password: 'correct horse battery', new_password: 'a new passphrase' };
    for (const [path, fields] of [
      [PASSWORD, change],
      [EVERYWHERE, {}],
    ] as const) {
      expect((await client.post(path, { ...fields })).status).toBe(403);
      expect((await client.post(path, { ...fields, _csrf: csrfOf((await other.get(ACCOUNT)).html) })).status).toBe(403);
      expect((await client.post(path, { ...fields, _csrf: csrf }, { origin: 'https://evil.example' })).status).toBe(403);
    }
    expect((await client.post(PASSWORD, { ...change, _csrf: csrf }, { origin: ORIGIN })).status).toBe(303);
    expect(await isSignedIn(other)).toBe(false);
  });

  it('sends a signed-out post of either form to sign in, and back to the account', async () => {
    for (const path of [PASSWORD, EVERYWHERE]) {
      const response = await new FormClient(t.app).post(path, {});
      expect(response.status).toBe(303);
      expect(response.location).toBe('/signin?next=%2Faccount');
    }
  });
});
