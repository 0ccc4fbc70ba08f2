// A key recognised once on a connection is recognised again by its text on the next requests of that
// connection, without hashing it (accounts/key-resolver.ts). On a real server, one kept-alive connection:
// another key sent on it is its own user's, a changed key is refused, and a key revoked elsewhere is
// refused on its very next request there.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { signUpOver } from '../helpers/server-process.js';

let server: ListeningApp;
let first: string;
let second: string;

beforeAll(async () => {
  server = await startListeningApp('pglite');
  [first, second] = await Promise.all([signUpOver(server.url, 'first@example.org'), signUpOver(server.url, 'second@example.org')]);
}, 60_000);
afterAll(() => server?.close());

interface ReceivedResponse {
  status: number;
  body: string;
  reusedSocket: boolean;
}

function send(agent: Agent, method: string, path: string, key: string): Promise<ReceivedResponse> {
  return new Promise((resolve, reject) => {
    const call = request(`${server.url}${path}`, { method, agent, headers: { 'x-api-key': key } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body, reusedSocket: call.reusedSocket }));
    });
    call.on('error', reject);
    call.end();
  });
}

/** The prefixes of the keys that `key`'s user lists. */
const listedPrefixes = (response: ReceivedResponse) =>
  (JSON.parse(response.body) as { data: { prefix: string }[] }).data.map((k) => k.prefix);

describe('keys on one kept-alive connection', () => {
  it('are told apart, and a changed or revoked key is refused on its next request', async () => {
    const connection = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const asFirst = await send(connection, 'GET', '/api/keys', first);
      expect(asFirst.status).toBe(200);
      expect(listedPrefixes(asFirst)).toEqual([first.slice(0, 12)]);
      expect((await send(connection, 'GET', '/api/keys', first)).status).toBe(200);

      const asSecond = await send(connection, 'GET', '/api/keys', second);
      expect([asSecond.status, asSecond.reusedSocket]).toEqual([200, true]);
      expect(listedPrefixes(asSecond)).toEqual([second.slice(0, 12)]);

      const changed = `${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`;
      expect((await send(connection, 'GET', '/api/keys', first)).status).toBe(200);
      const refused = await send(connection, 'GET', '/api/keys', changed);
      expect([refused.status, refused.reusedSocket]).toEqual([401, true]);

      // Revoked on another connection, with the key itself.
      expect((await send(connection, 'GET', '/api/keys', first)).status).toBe(200);
      const elsewhere = new Agent({ keepAlive: false });
      const id = (JSON.parse((await send(elsewhere, 'GET', '/api/keys', first)).body) as { data: { id: string }[] }).data[0]!.id;
      expect((await send(elsewhere, 'DELETE', `/api/keys/${id}`, first)).status).toBe(204);
      const revoked = await send(connection, 'GET', '/api/keys', first);
      expect([revoked.status, revoked.reusedSocket]).toEqual([401, true]);
      expect((await send(connection, 'GET', '/api/keys', second)).status).toBe(200);
    } finally {
      connection.destroy();
    }
  }, 30_000);
});
