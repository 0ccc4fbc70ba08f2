// The web application over HTTP: sign-up, sign-in, Account → Developer Settings → API Keys,
// and its protections (redirects, CSRF, throttle, escaping, headers, limits; Origin in origin.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOn, call, expectProblem, startTestApp, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { csrfOf, FormClient, fromAddress, ORIGIN, signedUpClient } from './form-client.js';

const KEYS = '/account/developer-settings/api-keys';

/** Creates a key on the API Keys page and reads the raw key from the page it leads to. */
async function createKeyInPage(client: FormClient, fields: Record<string, string>) {
  const created = await client.submit(KEYS, KEYS, fields);
  expect(created.status).toBe(303);
  expect(created.location).toBe(KEYS);
  const page = await client.get(KEYS);
  const key = /<code class="secret" id="new-key">(akk_[A-Za-z0-9_-]+)<\/code>/.exec(page.html)?.[1];
  return { page, key };
}

describe.each(storageKinds)('API Keys page on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('shows a created key once, lists it by prefix and name, and revoking it refuses the key at once', async () => {
    const { client } = await signedUpClient(t.app);
    const { page, key } = await createKeyInPage(client, { name: 'ci', expiry: 'never' });
    expect(key).toMatch(/^akk_[A-Za-z0-9_-]{43}$/);
    expect(page.html).toContain('It will not be shown again');
    expect((await call(t.app, key!, 'GET', '/api/farms')).status).toBe(200);

    const again = await client.get(KEYS);
    expect(again.html).not.toContain(key!);
    expect(again.html).toContain(`<code>${key!.slice(0, 12)}…</code>`);
    expect(again.html).toContain('<td class="name">ci</td>');

    const revokeLink = /href="(\/account\/developer-settings\/api-keys\/[^"]+\/revoke)"/.exec(again.html)![1]!;
    const confirm = await client.get(revokeLink);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Revoke the key “ci”?');
    const revoked = await client.post(revokeLink, { _csrf: csrfOf(confirm.html) });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe(`${KEYS}?revoked=1`);
    await expectProblem(await call(t.app, key!, 'GET', '/api/farms'), 401, 'unauthorized');
    const after = await client.get(revoked.location!);
    expect(after.html).toContain('The key was revoked');
    expect(after.html).toContain('You have no active keys.');
  });

  it('shows a new key once only: its cookie sent again (a copy, a replay) shows nothing', async () => {
    const { client } = await signedUpClient(t.app);
    expect((await client.submit(KEYS, KEYS, { name: 'once', expiry: 'never' })).status).toBe(303);
    const flash = client.cookies.get('akker_new_key')!;
    const first = await client.get(KEYS);
    const key = /<code class="secret" id="new-key">(akk_[A-Za-z0-9_-]+)<\/code>/.exec(first.html)![1]!;
    client.cookies.set('akker_new_key', flash);
    const replayed = await client.get(KEYS);
    expect(replayed.status).toBe(200);
    expect(replayed.html).not.toContain(key);
    expect(replayed.html).not.toContain('It will not be shown again');
    expect(replayed.html).toContain('<td class="name">once</td>');
  });

  it('shows "never" for a key not used yet, and the expiry chosen', async () => {
    const { client } = await signedUpClient(t.app);
    await createKeyInPage(client, { name: 'thirty days', expiry: '30' });
    const page = await client.get(KEYS);
    const row = /<tr><td><code>akk_.*?<\/tr>/s.exec(page.html)![0];
    const expected = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    expect(row).toContain('<span class="never">never</span>');
    expect(row).toContain(`>${expected} `);
  });

  it('makes a key chosen to expire on a date work until the end of that day (UTC)', async () => {
    const { client } = await signedUpClient(t.app);
    await createKeyInPage(client, { name: 'dated', expiry: 'date', expires_on: '2099-06-30' });
    expect((await client.get(KEYS)).html).toContain('<time datetime="2099-06-30T23:59:59.999Z">2099-06-30 23:59 UTC</time>');
  });

  it('explains a missing name and a date in the past, and keeps what was typed', async () => {
    const { client } = await signedUpClient(t.app);
    const page = await client.submit(KEYS, KEYS, { name: '  ', expiry: 'date', expires_on: '2001-01-01' });
    expect(page.status).toBe(400);
    expect(page.html).toContain('Give the key a name, so that you can tell it apart later.');
    expect(page.html).toContain('Choose today or a later date.');
    expect(page.html).toContain('<option value="date" selected="">On a date</option>');
    expect(page.html).toContain('value="2001-01-01"');
    const odd = await client.submit(KEYS, KEYS, { name: 'x', expiry: 'forever' });
    expect(odd.html).toContain('Choose when the key expires.');
  });

  it('does not let one person revoke the key of another', async () => {
    const owner = await signedUpClient(t.app);
    const { key } = await createKeyInPage(owner.client, { name: 'mine', expiry: 'never' });
    const keyId = /api-keys\/([^/"]+)\/revoke/.exec((await owner.client.get(KEYS)).html)![1]!;
    const other = await signedUpClient(t.app);
    expect((await other.client.get(`${KEYS}/${keyId}/revoke`)).status).toBe(404);
    const page = await other.client.get('/account');
    expect((await other.client.post(`${KEYS}/${keyId}/revoke`, { _csrf: csrfOf(page.html) })).status).toBe(404);
    expect((await call(t.app, key!, 'GET', '/api/farms')).status).toBe(200);
  });
});

describe('pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  describe('signing up and in', () => {
    it('signs up, sets the session cookie (HttpOnly, SameSite=Lax, Secure under https) and shows the account', async () => {
      const client = new FormClient(t.app);
      const form = await client.get('/signup');
      const response = await client.post('/signup', {
        _csrf: csrfOf(form.html),
        name: 'Jan de Boer',
        email: 'jan@example.org',
        password: 'long enough',
      });
      expect(response.status).toBe(303);
      expect(response.location).toBe('/account');
      const session = response.headers.getSetCookie().find((c) => c.startsWith('akker_session='))!;
      expect(session).toMatch(/HttpOnly/);
      expect(session).toMatch(/SameSite=Lax/);
      expect(session).toMatch(/Secure/);
      const account = await client.get('/account');
      expect(account.status).toBe(200);
      expect(account.html).toContain('<dd>Jan de Boer</dd>');
      expect(account.html).toContain('<dd>jan@example.org</dd>');
      expect(account.html).toContain('href="/account/developer-settings"');
    });

    it('says what is wrong with a sign-up, keeps the name and e-mail typed, never the password', async () => {
      const client = new FormClient(t.app);
      const short = await client.submit('/signup', '/signup', { name: 'Piet', email: 'piet@example.org', password: 'kort' });
      expect(short.status).toBe(400);
      expect(short.html).toContain('Use a password of at least 8 characters.');
      expect(short.html).toContain('value="Piet"');
      expect(short.html).toContain('value="piet@example.org"');
      expect(short.html).not.toContain('kort');

      const nameless = await client.submit('/signup', '/signup', { name: '', email: 'anon@example.org', password: 'secret password' });
      expect(nameless.html).toContain('Enter your name.');
      expect(nameless.html).not.toContain('secret password');

      await client.submit('/signup', '/signup', { name: 'First', email: 'taken-page@example.org', password: 'long enough' });
      const taken = await new FormClient(t.app).submit('/signup', '/signup', {
        name: 'Second',
        email: 'TAKEN-page@example.org',
        password: 'other password',
      });
      expect(taken.status).toBe(409);
      expect(taken.html).toContain('An account with this e-mail address exists already');
      expect(taken.html).toContain('value="Second"');
      expect(taken.html).not.toContain('other password');
    });

    it('says a wrong password is wrong, keeps the e-mail address and drops the password', async () => {
      const { email } = await signedUpClient(t.app);
      const page = await new FormClient(t.app).submit('/signin', '/signin', { email, password: 'not my password' });
      expect(page.status).toBe(401);
      expect(page.html).toContain('The e-mail address or the password is wrong.');
      expect(page.html).toContain(`value="${email}"`);
      expect(page.html).not.toContain('not my password');
    });

    it('signs in and out; after signing out the session no longer opens the account', async () => {
      const { email, password } = await signedUpClient(t.app);
      const client = new FormClient(t.app);
      const signedIn = await client.submit('/signin', '/signin', { email: email.toUpperCase(), password });
      expect(signedIn.status).toBe(303);
      const account = await client.get('/account');
      const out = await client.post('/signout', { _csrf: csrfOf(account.html) });
      expect(out.status).toBe(303);
      expect(out.location).toBe('/signin');
      expect((await client.get('/account')).status).toBe(303);
    });

    it('escapes what people typed: a name like <script> is shown as text', async () => {
      const { client } = await signedUpClient(t.app, '<script>alert("name")</script>');
      const account = await client.get('/account');
      expect(account.html).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
      expect(account.html).not.toContain('<script>alert');
      await createKeyInPage(client, { name: '<img src=x onerror=alert(1)>', expiry: 'never' });
      const keys = await client.get(KEYS);
      expect(keys.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(keys.html).not.toContain('<img src=x');
    });
  });

  describe('signed-out visitors', () => {
    it.each(['/account', '/account/developer-settings', KEYS])(
      'sends a signed-out visitor of %s to /signin and back afterwards',
      async (path) => {
        const client = new FormClient(t.app);
        const page = await client.get(path);
        expect(page.status).toBe(303);
        expect(page.location).toBe(`/signin?next=${encodeURIComponent(path)}`);
        const { email, password } = await signedUpClient(t.app);
        const signIn = await client.get(page.location!);
        expect(signIn.html).toContain(`name="next" value="${path}"`);
        const signedIn = await client.post('/signin', { _csrf: csrfOf(signIn.html), email, password, next: path });
        expect(signedIn.status).toBe(303);
        expect(signedIn.location).toBe(path);
      },
    );

    it('sends a form post without a session to sign in, and back to the page of the form', async () => {
      const response = await new FormClient(t.app).post(KEYS, { name: 'x' });
      expect(response.status).toBe(303);
      expect(response.location).toBe(`/signin?next=${encodeURIComponent(KEYS)}`);
    });

    it('goes back only to our own account pages after signing in', async () => {
      const { email, password } = await signedUpClient(t.app);
      for (const next of ['//evil.example/account', 'https://evil.example/', '/account/../api/farms', '/api/keys']) {
        const client = new FormClient(t.app);
        const signIn = await client.get(`/signin?next=${encodeURIComponent(next)}`);
        expect(signIn.html).toContain('name="next" value="/account"');
        const response = await client.post('/signin', { _csrf: csrfOf(signIn.html), email, password, next });
        expect(response.location).toBe('/account');
      }
    });

    it('starts at / with sign-in, or with the account once signed in', async () => {
      expect((await t.app.request('/')).headers.get('location')).toBe('/signin');
      const { client } = await signedUpClient(t.app);
      expect((await client.get('/')).location).toBe('/account');
      expect((await client.get('/signin')).location).toBe('/account');
    });
  });

  describe('CSRF', () => {
    it('refuses a post without the token, with a wrong token, or with the token of another session (403 page)', async () => {
      const { client } = await signedUpClient(t.app);
      const other = await signedUpClient(t.app);
      const foreignToken = csrfOf((await other.client.get(KEYS)).html);
      const forgeries: Array<Record<string, string>> = [
        { name: 'forged' },
        { _csrf: 'guess', name: 'forged' },
        { _csrf: foreignToken, name: 'forged' },
      ];
      for (const fields of forgeries) {
        const response = await client.post(KEYS, { expiry: 'never', ...fields });
        expect(response.status).toBe(403);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(response.html).toContain('Form refused');
      }
      expect((await client.get(KEYS)).html).not.toContain('forged');
    });

    it('protects the signed-out forms too: sign-in without the visitor token is refused', async () => {
      const { email, password } = await signedUpClient(t.app);
      const client = new FormClient(t.app);
      expect((await client.post('/signin', { email, password })).status).toBe(403);
      const form = await client.get('/signin');
      expect((await client.post('/signin', { _csrf: csrfOf(form.html), email, password }, { origin: 'https://evil.example' })).status).toBe(
        403,
      );
      expect(client.cookies.has('akker_session')).toBe(false);
    });
  });

  describe('throttling sign-in', () => {
    it('refuses sign-in for an e-mail address after 10 failures from one client address, even with the right password, and tells when to retry', async () => {
      const { email, password } = await signedUpClient(t.app);
      const client = new FormClient(t.app, '198.51.100.1');
      for (let i = 0; i < 10; i++) expect((await client.submit('/signin', '/signin', { email, password: `wrong ${i}` })).status).toBe(401);
      const refused = await client.submit('/signin', '/signin', { email, password });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(refused.html).toContain('Too many sign-in attempts failed. Wait 15 minutes and try again.');
      expect(refused.html).toContain(`value="${email}"`);
      // The JSON endpoint shares the count.
      const json = await t.app.request(
        '/auth/sign-in',
        { method: 'POST', body: JSON.stringify({ email, password }), headers: { 'content-type': 'application/json' } },
        fromAddress('198.51.100.1'),
      );
      await expectProblem(json, 429, 'rate-limit-exceeded');
      expect(Number(json.headers.get('retry-after'))).toBeGreaterThan(800);
    });

    it('counts failures of the JSON sign-in too: the 11th attempt gets 429 with Retry-After, and so does the page', async () => {
      const { email, password } = await signedUpClient(t.app);
      const signIn = (body: unknown) =>
        t.app.request(
          '/auth/sign-in',
          { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
          fromAddress('192.0.2.4'),
        );
      for (let i = 0; i < 10; i++) await expectProblem(await signIn({ email, password: `wrong ${i}` }), 401, 'unauthorized');
      const refused = await signIn({ email, password });
      await expectProblem(refused, 429, 'rate-limit-exceeded');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
      expect((await new FormClient(t.app, '192.0.2.4').submit('/signin', '/signin', { email, password })).status).toBe(429);
    });

    it('failures from address A do not lock out the owner signing in from address B', async () => {
      const { email, password } = await signedUpClient(t.app);
      const stranger = new FormClient(t.app, '203.0.113.50');
      for (let i = 0; i < 20; i++) {
        const status = (await stranger.submit('/signin', '/signin', { email, password: `guess ${i}` })).status;
        expect(status).toBe(i < 10 ? 401 : 429);
      }
      const owner = new FormClient(t.app, '198.51.100.77');
      const signedIn = await owner.submit('/signin', '/signin', { email, password });
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe('/account');
      const json = await t.app.request(
        '/auth/sign-in',
        { method: 'POST', body: JSON.stringify({ email, password }), headers: { 'content-type': 'application/json' } },
        fromAddress('198.51.100.78'),
      );
      expect(json.status).toBe(200);
    });

    it('refuses sign-in from a client address after 50 failures, whichever e-mail addresses were tried', async () => {
      const { email, password } = await signedUpClient(t.app);
      const guesser = new FormClient(t.app, '203.0.113.9');
      const csrf = csrfOf((await guesser.get('/signin')).html);
      for (let i = 0; i < 50; i++) {
        expect((await guesser.post('/signin', { _csrf: csrf, email: `guess${i}@example.org`, password: 'password1' })).status).toBe(401);
      }
      expect((await guesser.post('/signin', { _csrf: csrf, email, password })).status).toBe(429);
      expect((await new FormClient(t.app, '203.0.113.10').submit('/signin', '/signin', { email, password })).status).toBe(303);
    });
  });

  describe('SIGNUP=closed', () => {
    it('hides sign-up: no link, and /signup is not there', async () => {
      // Another app on the same database, left open for the other tests.
      const closed = appOn(t.database, { SIGNUP: 'closed' });
      const client = new FormClient(closed.app);
      const signIn = await client.get('/signin');
      expect(signIn.html).not.toContain('href="/signup');
      const signUp = await client.get('/signup');
      expect(signUp.status).toBe(404);
      expect(signUp.html).toContain('Sign-up is closed');
      const form = await client.get('/signin');
      expect(
        (await client.post('/signup', { _csrf: csrfOf(form.html), name: 'N', email: 'n@example.org', password: 'long enough' })).status,
      ).toBe(404);
    });
  });

  describe('what every page has', () => {
    it('sends security headers: CSP with only our own scripts and styles, no framing, no sniffing, no caching', async () => {
      const page = await new FormClient(t.app).get('/signin');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.headers.get('cache-control')).toBe('no-store');
    });

    it('loads only files of this process, with no inline script or style', async () => {
      const { client } = await signedUpClient(t.app);
      await client.submit(KEYS, KEYS, { name: 'with copy button', expiry: 'never' });
      const page = await client.get(KEYS);
      const sources = [...page.html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(sources.filter((s) => /^[a-z]+:|^\/\//i.test(s))).toEqual([]);
      expect(page.html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(page.html).not.toMatch(/\sstyle=/);
      for (const asset of sources.filter((s) => s.startsWith('/assets/'))) {
        const response = await t.app.request(asset);
        expect(response.status, asset).toBe(200);
        expect(response.headers.get('cache-control')).toContain('immutable');
      }
    });

    it('responds to an unknown page with an HTML 404 page, and keeps problem+json for /api and /auth', async () => {
      const page = await t.app.request('/no/such/page');
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('Page not found');
      await expectProblem(await t.app.request('/api/no-such-thing'), 404, 'not-found');
      await expectProblem(await t.app.request('/auth/no-such-thing'), 404, 'not-found');
      // Only /api and /auth themselves and what is below them: a longer first segment is a page.
      for (const path of ['/apix', '/authorize', '/api-docs']) {
        const other = await t.app.request(path);
        expect([path, other.status, other.headers.get('content-type')]).toEqual([path, 404, expect.stringMatching(/^text\/html/)]);
      }
    });

    it('refuses a form post over 64 KiB with a 413 page, and a post that is not a form with a 415 page', async () => {
      const client = new FormClient(t.app);
      const csrf = csrfOf((await client.get('/signin')).html);
      const big = await client.post('/signin', { _csrf: csrf, email: 'a@example.org', password: 'x'.repeat(70 * 1024) });
      expect(big.status).toBe(413);
      expect(big.html).toContain('Form too large');
      const json = await t.app.request('/signin', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
      });
      expect(json.status).toBe(415);
    });
  });
});
