// TRUST_PROXY: the client address (which the sign-in throttle counts by) comes from X-Forwarded-For
// only when the connection's peer is a trusted proxy; otherwise the header is ignored.
import { afterEach, describe, expect, it } from 'vitest';
import { forwardedClient } from '../../src/accounts/client-address.js';
import { loadConfig } from '../../src/core/config.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const opened: ListeningApp[] = [];
afterEach(async () => {
  for (const test of opened.splice(0)) await test.close();
});

const signIn = (test: ListeningApp, email: string, forwardedFor: string) =>
  fetch(`${test.url}/auth/sign-in`, {
    method: 'POST',
    body: JSON.stringify({ email, password: 'wrong password' }),
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
  });

/** Fails the sign-in of `email` from 203.0.113.5 until throttled; then answers what 198.51.100.9 gets. */
async function throttleThenTryElsewhere(test: ListeningApp, email: string): Promise<number> {
  let status = 0;
  for (let i = 0; i < 20 && status !== 429; i++) status = (await signIn(test, email, '203.0.113.5')).status;
  expect(status).toBe(429);
  return (await signIn(test, email, '198.51.100.9')).status;
}

// Generous: a fresh embedded database takes seconds to open on a loaded machine.
describe('trusted proxy', { timeout: 120_000 }, () => {
  it('with the peer trusted, counts sign-in failures per forwarded client', async () => {
    const test = await startListeningApp('pglite', { TRUST_PROXY: '127.0.0.1, ::1' });
    opened.push(test);
    expect(await throttleThenTryElsewhere(test, 'proxied@example.org')).toBe(401);
  });

  it('without TRUST_PROXY, ignores a spoofed X-Forwarded-For: every attempt counts at the socket address', async () => {
    const test = await startListeningApp('pglite');
    opened.push(test);
    expect(await throttleThenTryElsewhere(test, 'direct@example.org')).toBe(429);
  });

  it('reads X-Forwarded-For from the right, past trusted proxies, to the first untrusted hop', () => {
    const trusted = loadConfig({ TRUST_PROXY: '10.0.0.0/8,2001:db8::/32' }).trustProxy!;
    expect(forwardedClient('10.1.1.1', '198.51.100.1, 203.0.113.5', trusted)).toBe('203.0.113.5');
    expect(forwardedClient('10.1.1.1', '198.51.100.1, 203.0.113.5, 10.2.2.2', trusted)).toBe('203.0.113.5');
    expect(forwardedClient('2001:db8::1', '2001:db8::2, 2a01::7', trusted)).toBe('2a01::7');
    expect(forwardedClient('::ffff:10.1.1.1', '203.0.113.5', trusted)).toBe('203.0.113.5');
    // An untrusted peer's header proves nothing; a hop that is no address ends the reading.
    expect(forwardedClient('192.0.2.1', '203.0.113.5', trusted)).toBe('192.0.2.1');
    expect(forwardedClient('10.1.1.1', '203.0.113.5, garbage', trusted)).toBe('10.1.1.1');
    expect(forwardedClient('10.1.1.1', undefined, trusted)).toBe('10.1.1.1');
    expect(forwardedClient('10.1.1.1', '203.0.113.5', null)).toBe('10.1.1.1');
  });

  it('refuses a TRUST_PROXY that is not a list of addresses and CIDR ranges', () => {
    for (const bad of ['10.0.0.0/33', 'proxy.example', '::1/129', '10.0.0.1/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('keeps session cookies Secure under an https PUBLIC_URL', async () => {
    const test = await startListeningApp('pglite', { TRUST_PROXY: '127.0.0.1' });
    opened.push(test);
    const signUp = await fetch(`${test.url}/auth/sign-up`, {
      method: 'POST',
      body: JSON.stringify({ email: 'secure@example.org', password: 'correct horse', name: 'S' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(signUp.headers.get('set-cookie')).toMatch(/; Secure/i);
  });
});
