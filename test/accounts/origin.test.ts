// Posts authenticated by the session cookie must come from our own origin when they name one:
// a browser sends the cookie along with another site's request, and Origin says whose it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';

const FOREIGN = 'https://evil.example';

describe('Origin of cookie-authenticated JSON requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  const signOut = (headers: Record<string, string>) => t.app.request('/auth/sign-out', { method: 'POST', headers });
  const sessionWorks = async (cookie: string) => (await t.app.request('/api/keys', { headers: { cookie } })).status === 200;

  it('refuses sign-out with the session cookie from another origin, and the session stays', async () => {
    const { cookie } = await signUpWithKey(t.app);
    await expectProblem(await signOut({ cookie, origin: FOREIGN }), 403, 'forbidden');
    await expectProblem(await signOut({ cookie, origin: 'null' }), 403, 'forbidden');
    expect(await sessionWorks(cookie)).toBe(true);
  });

  it('signs out from our own origin, and a script that names no origin', async () => {
    const first = await signUpWithKey(t.app);
    expect((await signOut({ cookie: first.cookie, origin: 'https://akker.test' })).status).toBe(204);
    expect(await sessionWorks(first.cookie)).toBe(false);
    const second = await signUpWithKey(t.app);
    expect((await signOut({ cookie: second.cookie })).status).toBe(204);
    expect(await sessionWorks(second.cookie)).toBe(false);
  });

  it('refuses revoking a key with the session cookie from another origin, and the key keeps working', async () => {
    const { cookie, key, keyId } = await signUpWithKey(t.app);
    await expectProblem(
      await t.app.request(`/api/keys/${keyId}`, { method: 'DELETE', headers: { cookie, origin: FOREIGN } }),
      403,
      'forbidden',
    );
    expect((await call(t.app, key, 'GET', '/api/farms')).status).toBe(200);
  });

  it('leaves requests with an API key alone, whatever their origin (no cookie, nothing to forge)', async () => {
    const { key } = await signUpWithKey(t.app);
    const created = await t.app.request('/api/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'from a web app' }),
      headers: { 'content-type': 'application/json', 'x-api-key': key, origin: FOREIGN },
    });
    expect(created.status).toBe(201);
  });
});
