// Sign-ups per client address in a rolling hour (SIGNUP_LIMIT_PER_HOUR), for the JSON endpoint and
// the sign-up page together; and the key forms of the Developer Settings page counted like their API twins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { appOn, expectProblem, type TestApp } from '../helpers/app.js';
import { openTestPglite } from '../helpers/databases.js';
import { csrfOf, FormClient, fromAddress, signedUpClient } from './form-client.js';

const KEYS_PAGE = '/account/developer-settings/api-keys';
let people = 0;
const newEmail = () => `throttled${++people}-${Date.now()}@example.org`;

describe('sign-up throttle per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = appOn(await openTestPglite(), { SIGNUP_LIMIT_PER_HOUR: '3' });
  });
  afterAll(() => t.close());

  const signUp = (address: string, body: Record<string, unknown>) =>
    t.app.request(
      '/auth/sign-up',
      { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      fromAddress(address),
    );
  const valid = () => ({ email: newEmail(), password: 'long enough', name: 'N' });

  it('refuses the sign-up after the limit from one address with 429 and Retry-After, and admits another address', async () => {
    for (let i = 0; i < 3; i++) expect((await signUp('198.51.100.20', valid())).status).toBe(201);
    const refused = await signUp('198.51.100.20', valid());
    const body = await expectProblem(refused, 429, 'rate-limit-exceeded');
    expect(body.detail).toContain('sign-ups from this address');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await signUp('198.51.100.21', valid())).status).toBe(201);
  });

  it('does not count sign-ups refused by validation', async () => {
    for (let i = 0; i < 5; i++) expect((await signUp('198.51.100.30', { ...valid(), password: 'short' })).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await signUp('198.51.100.30', valid())).status).toBe(201);
  });

  it('counts the sign-up page and the JSON endpoint together, and says on the page when to come back', async () => {
    for (let i = 0; i < 2; i++) expect((await signUp('198.51.100.40', valid())).status).toBe(201);
    const client = new FormClient(t.app, '198.51.100.40');
    expect((await client.submit('/signup', '/signup', { name: 'N', email: newEmail(), password: 'long enough' })).status).toBe(303);
    const email = newEmail();
    const refused = await new FormClient(t.app, '198.51.100.40').submit('/signup', '/signup', {
      name: 'N',
      email,
      password: 'long enough',
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(refused.html).toContain('Too many accounts were made from your network');
    expect(refused.html).toContain(`value="${email}"`);
    expect((await signUp('198.51.100.40', valid())).status).toBe(429);
  });

  it('defaults to 10 sign-ups an hour; 0 turns the limit off', async () => {
    expect(loadConfig({}).signupLimitPerHour).toBe(10);
    const open = appOn(await openTestPglite(), { SIGNUP_LIMIT_PER_HOUR: '0' });
    try {
      for (let i = 0; i < 12; i++) {
        const response = await open.app.request(
          '/auth/sign-up',
          { method: 'POST', body: JSON.stringify(valid()), headers: { 'content-type': 'application/json' } },
          fromAddress('198.51.100.50'),
        );
        expect(response.status).toBe(201);
      }
    } finally {
      await open.close();
    }
  });
});

describe('key forms of the Developer Settings page under the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = appOn(await openTestPglite(), { RATE_LIMIT_GENERAL: '3' });
  });
  afterAll(() => t.close());

  it('counts key creation and revocation posts in the user’s general window, shared with the API, and refuses beyond it', async () => {
    const { client } = await signedUpClient(t.app);
    expect((await client.submit(KEYS_PAGE, KEYS_PAGE, { name: 'one', expiry: 'never' })).status).toBe(303);
    const page = await client.get(KEYS_PAGE);
    const revokeLink = /href="(\/account\/developer-settings\/api-keys\/[^"]+\/revoke)"/.exec(page.html)![1]!;
    const confirm = await client.get(revokeLink);
    expect((await client.post(revokeLink, { _csrf: csrfOf(confirm.html) })).status).toBe(303);
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    expect((await t.app.request('/api/keys', { headers: { cookie } })).status).toBe(200);

    const refused = await client.submit(KEYS_PAGE, KEYS_PAGE, { name: 'two', expiry: 'never' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.html).toContain('more requests in the last minute than this server allows');
    expect(refused.html).toContain('value="two"');
    await expectProblem(await t.app.request('/api/keys', { headers: { cookie } }), 429, 'rate-limit-exceeded');
  });
});
