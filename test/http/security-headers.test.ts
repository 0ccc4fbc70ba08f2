// Header fields that keep a browser from misusing an answer: X-Content-Type-Options: nosniff on every
// answer of the API (JSON and problem+json alike), and on the documentation page a Content-Security-
// Policy that lets Swagger UI run from this server only, and no framing by another site. The page
// is also opened in Chromium (when installed), which must render it without breaking the policy.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium } from '../../scripts/chromium.js';
import { call, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { tempDir } from '../helpers/temp.js';

describe('X-Content-Type-Options: nosniff', () => {
  let t: TestApp;
  let user: Account;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    user = await signUpWithKey(t.app);
  });
  afterAll(() => t.close());

  it('is on every kind of answer: JSON, problem+json, no content, the description, /auth and /health', async () => {
    const json = { 'content-type': 'application/json' };
    const answers: Array<[string, Response]> = [
      ['GET /api/farms', await call(t.app, user.key, 'GET', '/api/farms')],
      ['POST /api/farms', await call(t.app, user.key, 'POST', '/api/farms', { b_name_farm: 'x' })],
      ['404', await t.app.request('/api/nothing')],
      ['401', await t.app.request('/api/farms')],
      ['400', await call(t.app, user.key, 'POST', '/api/farms', { unknown: 1 })],
      ['204', await call(t.app, user.key, 'DELETE', `/api/keys/${user.keyId}`)],
      ['openapi.json', await t.app.request('/api/openapi.json')],
      [
        'preflight',
        await t.app.request('/api/farms', {
          method: 'OPTIONS',
          headers: { origin: 'https://x.test', 'access-control-request-method': 'POST' },
        }),
      ],
      [
        'sign-in',
        await t.app.request('/auth/sign-in', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: user.email, password: 'correct horse' }),
        }),
      ],
      ['sign-in 400', await t.app.request('/auth/sign-in', { method: 'POST', headers: json, body: '{' })],
      ['/health', await t.app.request('/health')],
      ['/health 405', await t.app.request('/health', { method: 'POST' })],
    ];
    expect(answers.map(([name, r]) => [name, r.headers.get('x-content-type-options')])).toEqual(answers.map(([name]) => [name, 'nosniff']));
  });
});

describe('the documentation page', () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp('pglite');
  });
  afterAll(() => t.close());

  it('has a Content-Security-Policy of its own origin, nosniff and no framing', async () => {
    const page = await fetch(`${t.url}/api/docs`);
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-eval|https?:\/\/(?!akker\.test)/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'start.js']) {
      expect((await fetch(`${t.url}/api/docs/${asset}`)).headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it.skipIf(!hasChromium())(
    `renders in ${CHROMIUM} without breaking its policy`,
    async () => {
      const profile = tempDir('akker-docs-');
      const browser = await launchChromium(profile);
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        const complaints: string[] = [];
        // A policy violation is reported on the console; a failed load by its response (the browser's
        // own ask for /favicon.ico, which the page does not link, is no failure of the page).
        page.on('console', (message) => {
          if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) complaints.push(message.text());
        });
        page.on('pageerror', (error) => complaints.push(error.message));
        page.on('response', (response) => {
          if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
            complaints.push(`${response.status()} ${response.url()}`);
        });
        await page.goto(`${t.url}/api/docs`);
        // Swagger UI has fetched the description and drawn its operations.
        await page.locator('.opblock-summary-path', { hasText: '/api/farms' }).first().waitFor();
        await page.locator('.opblock-summary', { hasText: '/api/farms' }).first().click();
        await page.locator('.opblock-body').first().waitFor();
        expect(complaints).toEqual([]);
      } finally {
        await browser.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
