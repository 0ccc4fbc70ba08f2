// The web application end to end in Debian's Chromium (headless, fresh profile), against the
// real app served over HTTP: sign up → Account → Developer Settings → API Keys → create "ci" →
// use it → reload (raw key gone) → revoke → refused; a read-only key for one farm; a wrong password; a
// forged cross-origin post; Account → Organisations: create one, add members, change a role, remove one, leave.
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium as chromiumInstalled, launchChromium } from '../../scripts/chromium.js';
import type { App } from '../../src/app/app.js';
import { appOn, type TestApp } from '../helpers/app.js';
import { openTestPglite } from '../helpers/databases.js';
import { tempDir } from '../helpers/temp.js';

const KEYS = '/account/developer-settings/api-keys';
const BROWSER_TEST_MS = 120_000;

const hasChromium = chromiumInstalled();
if (!hasChromium) {
  console.log(`[akker tests] ${CHROMIUM} is missing: the browser test of the web application is skipped (apt-get install chromium).`);
}

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe.skipIf(!hasChromium)('the web application in Chromium', () => {
  let t: TestApp;
  let server: Server;
  let attacker: Server;
  let base: string;
  let attackerBase: string;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const email = `browser-${Date.now()}@example.org`;
  const password = 'correct horse battery';

  const apiFarms = (key: string) => fetch(`${base}/api/farms`, { headers: { 'x-api-key': key } });

  beforeAll(async () => {
    // The app needs its own address (PUBLIC_URL) before it is built: listen first, then build.
    let app: App | undefined;
    server = serve({ fetch: (request, env) => app!.fetch(request, env), port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = appOn(await openTestPglite(), { PUBLIC_URL: base });
    app = t.app;

    // Another origin on the same site (127.0.0.1, another port): Lax session cookies do go along with its posts.
    attacker = createServer((_, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(
        `<!doctype html><form id="forged" method="post" action="${base}${KEYS}">` +
          '<input name="name" value="forged"><input name="expiry" value="never"></form>' +
          '<script>document.getElementById("forged").submit()</script>',
      );
    });
    attackerBase = `http://127.0.0.1:${await listen(attacker)}`;

    profile = tempDir('akker-chromium-');
    context = await launchChromium(profile);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = context.pages()[0] ?? (await context.newPage());
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (attacker) await close(attacker);
    if (server) await close(server);
    await t?.close();
  });

  it(
    'signs up, creates the key "ci" under Account → Developer Settings → API Keys, uses it, no longer shows it, revokes it',
    async () => {
      await page.goto(`${base}/signup`);
      await page.getByLabel('Name').fill('Browser Grower');
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(`${base}/account`);
      expect(await page.locator('main').textContent()).toContain(email);

      await page.getByRole('link', { name: 'Developer Settings' }).click();
      await page.waitForURL(`${base}/account/developer-settings`);
      await page.getByRole('link', { name: 'API Keys' }).click();
      await page.waitForURL(`${base}${KEYS}`);
      expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toMatch(/^Account\s+Developer Settings\s+API Keys$/);

      await page.getByLabel('Name').fill('ci');
      await page.getByRole('button', { name: 'Create key' }).click();
      const rawKey = (await page.locator('#new-key').textContent())!.trim();
      expect(rawKey).toMatch(/^akk_[A-Za-z0-9_-]{43}$/);
      expect(await page.locator('main').textContent()).toContain('It will not be shown again');

      // The copy button is the one script of the pages.
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(rawKey);

      expect((await apiFarms(rawKey)).status).toBe(200);

      await page.reload();
      expect(await page.locator('#new-key').count()).toBe(0);
      expect(await page.content()).not.toContain(rawKey);
      const row = page.locator('tbody tr', { hasText: 'ci' });
      expect(await row.count()).toBe(1);
      const rowText = await row.innerText();
      expect(rowText).toContain(rawKey.slice(0, 12));
      expect(rowText).toContain('never');

      await row.getByRole('link', { name: 'Revoke ci' }).click();
      await page.getByRole('heading', { name: 'Revoke the key “ci”?' }).waitFor();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('The key was revoked.').waitFor();
      expect(await page.locator('tbody tr', { hasText: 'ci' }).count()).toBe(0);

      expect((await apiFarms(rawKey)).status).toBe(401);
    },
    BROWSER_TEST_MS,
  );

  it(
    'creates both kinds of key: one for all farms that reads and writes, and a read-only one for one farm',
    async () => {
      await page.goto(`${base}${KEYS}`);
      await page.getByLabel('Name').fill('everything');
      await page.getByRole('button', { name: 'Create key' }).click();
      const fullKey = (await page.locator('#new-key').textContent())!.trim();
      const api = (method: string, path: string, key: string, body?: unknown) =>
        fetch(`${base}${path}`, {
          method,
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const farmNamed = async (name: string) =>
        ((await (await api('POST', '/api/farms', fullKey, { b_name_farm: name })).json()) as { b_id_farm: string }).b_id_farm;
      const pipelineFarm = await farmNamed('Pipeline farm');
      const otherFarm = await farmNamed('Other farm');

      await page.goto(`${base}${KEYS}`);
      const everything = page.locator('tbody tr', { hasText: 'everything' });
      expect(await everything.innerText()).toMatch(/Read and write\s+All your farms/);

      await page.getByLabel('Name').fill('pipeline');
      await page.getByLabel('Read only: reads and calculations, no changes').check();
      await page.getByLabel('Only the farms ticked below').check();
      await page.getByLabel(/Pipeline farm/).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const readKey = (await page.locator('#new-key').textContent())!.trim();
      expect(readKey).toMatch(/^akk_[A-Za-z0-9_-]{43}$/);

      const listed = (await (await api('GET', '/api/farms', readKey)).json()) as { data: Array<{ b_id_farm: string }> };
      expect(listed.data.map((farm) => farm.b_id_farm)).toEqual([pipelineFarm]);
      expect((await api('PATCH', `/api/farms/${pipelineFarm}`, readKey, { b_name_farm: 'Changed' })).status).toBe(403);
      expect((await api('GET', `/api/farms/${otherFarm}`, readKey)).status).toBe(404);

      await page.reload();
      const pipeline = page.locator('tbody tr', { hasText: 'pipeline' });
      expect(await pipeline.innerText()).toMatch(/Read only\s+Pipeline farm/);
      expect(await pipeline.innerText()).not.toContain('Other farm');

      // Only some farms, with none ticked, is refused with a word on the form, and no key is made.
      await page.getByLabel('Name').fill('no farms');
      await page.getByLabel('Only the farms ticked below').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByText('Tick at least one farm, or choose all your farms.').first().waitFor();
      expect(await page.locator('tbody tr', { hasText: 'no farms' }).count()).toBe(0);
    },
    BROWSER_TEST_MS,
  );

  it(
    'says so when the password is wrong, keeping the e-mail address and not the password',
    async () => {
      await page.goto(`${base}/account`);
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(`${base}/signin`);

      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('The e-mail address or the password is wrong.').waitFor();
      expect(await page.getByLabel('E-mail address').inputValue()).toBe(email);
      expect(await page.getByLabel('Password').inputValue()).toBe('');

      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}/account`);
    },
    BROWSER_TEST_MS,
  );

  it(
    'refuses a post forged by a page of another origin, although the browser sends the session cookie with it',
    async () => {
      const forged = page.waitForResponse((response) => response.url() === `${base}${KEYS}` && response.request().method() === 'POST');
      await page.goto(attackerBase);
      const response = await forged;
      // Without the session cookie the response would be a redirect to sign in; 403 is the CSRF check.
      expect(response.status()).toBe(403);
      await page.getByRole('heading', { name: 'Form refused' }).waitFor();

      await page.goto(`${base}${KEYS}`);
      expect(await page.locator('tbody tr', { hasText: 'forged' }).count()).toBe(0);
    },
    BROWSER_TEST_MS,
  );

  it(
    'signs up, creates an organisation under Account → Organisations, adds members, changes a role, removes one and leaves',
    async () => {
      await page.goto(`${base}/account`);
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(`${base}/signin`);
      const founder = `founder-${Date.now()}@example.org`;
      await page.goto(`${base}/signup`);
      await page.getByLabel('Name').fill('Founder');
      await page.getByLabel('E-mail address').fill(founder);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(`${base}/account`);

      // A colleague with an account (and a key, the witness of what the page stored), and an address without one.
      const colleague = `colleague-${Date.now()}@example.org`;
      const signUp = await fetch(`${base}/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: colleague, password, name: 'Colleague' }),
      });
      expect(signUp.status).toBe(201);
      const cookie = signUp.headers.get('set-cookie')!.split(';')[0]!;
      const keyResponse = await fetch(`${base}/api/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: base },
        body: JSON.stringify({ name: 'witness' }),
      });
      const colleagueKey = ((await keyResponse.json()) as { key: string }).key;
      const waiting = `not-signed-up-${Date.now()}@example.org`;
      // Each form reloads the page, with a notice that may be on the page before too: wait for the new page.
      const submit = async (button: Locator) => {
        const loaded = page.waitForEvent('load');
        await button.click();
        await loaded;
      };

      await page.getByRole('link', { name: 'Organisations' }).click();
      await page.waitForURL(`${base}/account/organisations`);
      expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toMatch(/^Account\s+Organisations$/);
      await page.getByLabel('Name').fill('Akkerbouw Advies BV');
      await page.getByRole('button', { name: 'Create organisation' }).click();
      await page.getByRole('heading', { name: 'Akkerbouw Advies BV' }).waitFor();
      const organisationUrl = page.url();
      const organisationId = organisationUrl.slice(`${base}/account/organisations/`.length);
      expect(await page.locator('main').textContent()).toContain('Your role: owner.');

      for (const [address, role] of [
        [colleague, 'member'],
        [waiting, 'admin'],
      ] as const) {
        await page.getByLabel('E-mail address').fill(address);
        await page.getByLabel('Role', { exact: true }).selectOption(role);
        await submit(page.getByRole('button', { name: 'Add member' }));
        expect(await page.getByText('The members were changed.').count()).toBe(1);
        expect(await page.getByLabel(`Role of ${address}`, { exact: true }).inputValue()).toBe(role);
      }
      const seenByColleague = async () => {
        const response = await fetch(`${base}/api/organisations/${organisationId}/members`, { headers: { 'x-api-key': colleagueKey } });
        return ((await response.json()) as { data: Array<{ email: string; role: string }> }).data.map((m) => `${m.email} ${m.role}`);
      };
      expect(await seenByColleague()).toEqual([`${founder} owner`, `${colleague} member`, `${waiting} admin`]);

      // The last owner may not leave: the page says why, with 409, and nothing changes.
      const refused = page.waitForResponse((response) => response.url().endsWith('/leave'));
      await submit(page.getByRole('button', { name: 'Leave organisation' }));
      expect((await refused).status()).toBe(409);
      await page.getByText('An organisation keeps at least one owner: make someone else owner first.').waitFor();

      await page.getByLabel(`Role of ${colleague}`, { exact: true }).selectOption('owner');
      await submit(page.getByRole('button', { name: `Change the role of ${colleague}` }));
      expect(await page.getByText('The members were changed.').count()).toBe(1);
      expect(await page.getByLabel(`Role of ${colleague}`, { exact: true }).inputValue()).toBe('owner');

      await submit(page.getByRole('button', { name: `Remove ${waiting}` }));
      expect(await page.locator('tbody tr', { hasText: waiting }).count()).toBe(0);
      expect(await seenByColleague()).toEqual([`${founder} owner`, `${colleague} owner`]);

      await submit(page.getByRole('button', { name: 'Leave organisation' }));
      await page.getByText('You left the organisation.').waitFor();
      expect(await page.locator('main').textContent()).toContain('You are not a member of any organisation yet.');
      expect(await seenByColleague()).toEqual([`${colleague} owner`]);
      await page.goto(organisationUrl);
      await page.getByRole('heading', { name: 'Not Found' }).waitFor();
    },
    BROWSER_TEST_MS,
  );
});
