// One same-origin rule for every request the session cookie authenticates (src/http/same-origin.ts): a
// change naming another origin, by Origin or else by Referer, is refused and changes nothing; one naming
// none passes. The same cases run against the API with the cookie and against a page's form post.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';
import { csrfOf, ORIGIN, signedUpClient } from './form-client.js';

const FOREIGN = 'https://evil.example';
const KEYS_PAGE = '/account/developer-settings/api-keys';

interface OriginCase {
  name: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  passes: boolean;
}

const cases: OriginCase[] = [
  { name: 'our Origin', method: 'POST', headers: { origin: ORIGIN }, passes: true },
  { name: 'the Origin of the address the request was sent to', method: 'POST', headers: { origin: 'http://localhost' }, passes: true },
  { name: 'a foreign Origin', method: 'POST', headers: { origin: FOREIGN }, passes: false },
  { name: 'Origin null (a browser hiding the origin)', method: 'POST', headers: { origin: 'null' }, passes: false },
  { name: 'a foreign Origin with our Referer', method: 'POST', headers: { origin: FOREIGN, referer: `${ORIGIN}/account` }, passes: false },
  { name: 'no Origin, our Referer', method: 'POST', headers: { referer: `${ORIGIN}${KEYS_PAGE}` }, passes: true },
  { name: 'no Origin, a foreign Referer', method: 'POST', headers: { referer: `${FOREIGN}/page` }, passes: false },
  { name: 'neither Origin nor Referer (a program holding its own cookie)', method: 'POST', headers: {}, passes: true },
  { name: 'no Origin, a malformed Referer', method: 'POST', headers: { referer: 'not a URL' }, passes: true },
  { name: 'GET with a foreign Origin', method: 'GET', headers: { origin: FOREIGN }, passes: true },
];

/** A signed-in user on one path: a request with the case's method and headers, and their number of keys. */
interface Session {
  send(method: OriginCase['method'], headers: Record<string, string>): Promise<{ status: number; body: string }>;
  keyCount(): Promise<number>;
}

interface CookiePath {
  name: string;
  /** The status of a request let through, by method. */
  passed: Record<OriginCase['method'], number>;
  /** What the body of a refused request says. */
  refusal: string;
  open(t: TestApp): Promise<Session>;
}

const keyCountWith = async (t: TestApp, cookie: string) =>
  ((await (await t.app.request('/api/keys', { headers: { cookie } })).json()) as { pagination: { total: number } }).pagination.total;

const paths: CookiePath[] = [
  {
    name: 'the API with the session cookie (GET and POST /api/keys)',
    passed: { GET: 200, POST: 201 },
    refusal: 'This request came from another site and was refused.',
    async open(t) {
      const { cookie } = await signUpWithKey(t.app);
      return {
        async send(method, headers) {
          const body = method === 'POST' ? JSON.stringify({ name: 'origin case' }) : undefined;
          const response = await t.app.request('/api/keys', {
            method,
            body,
            headers: { ...(body ? { 'content-type': 'application/json' } : {}), cookie, ...headers },
          });
          return { status: response.status, body: await response.text() };
        },
        keyCount: () => keyCountWith(t, cookie),
      };
    },
  },
  {
    name: "a page's form post (GET and POST the API Keys page)",
    passed: { GET: 200, POST: 303 },
    refusal: 'Form refused',
    async open(t) {
      const { client } = await signedUpClient(t.app);
      const token = csrfOf((await client.get(KEYS_PAGE)).html);
      return {
        async send(method, headers) {
          const page =
            method === 'POST'
              ? await client.post(KEYS_PAGE, { _csrf: token, name: 'origin case', expiry: 'never' }, headers)
              : await client.get(KEYS_PAGE, headers);
          return { status: page.status, body: page.html };
        },
        keyCount: () => keyCountWith(t, `akker_session=${client.cookies.get('akker_session')}`),
      };
    },
  },
];

describe('The same-origin rule of cookie-authenticated requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  describe.each(paths)('$name', (path) => {
    let session: Session;
    beforeAll(async () => {
      session = await path.open(t);
    });

    for (const { name, method, headers, passes } of cases) {
      it(`${passes ? 'lets through' : 'refuses'} ${name}`, async () => {
        const before = await session.keyCount();
        const response = await session.send(method, headers);
        expect(response.status).toBe(passes ? path.passed[method] : 403);
        if (!passes) expect(response.body).toContain(path.refusal);
        expect(await session.keyCount()).toBe(before + (passes && method === 'POST' ? 1 : 0));
      });
    }
  });

  const signOut = (headers: Record<string, string>) => t.app.request('/auth/sign-out', { method: 'POST', headers });
  const sessionWorks = async (cookie: string) => (await t.app.request('/api/keys', { headers: { cookie } })).status === 200;

  it('refuses sign-out with the session cookie from another origin, and the session stays', async () => {
    const { cookie } = await signUpWithKey(t.app);
    await expectProblem(await signOut({ cookie, origin: FOREIGN }), 403, 'forbidden');
    await expectProblem(await signOut({ cookie, referer: `${FOREIGN}/page` }), 403, 'forbidden');
    expect(await sessionWorks(cookie)).toBe(true);
  });

  it('signs out from our own origin, and a program that names no origin', async () => {
    const first = await signUpWithKey(t.app);
    expect((await signOut({ cookie: first.cookie, origin: ORIGIN })).status).toBe(204);
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
