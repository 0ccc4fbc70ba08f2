// The API key's header fields as a real Node server reads them (where Node has parsed them, not through Hono).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { signUpOver } from '../helpers/server-process.js';

let server: ListeningApp;
let key: string;

beforeAll(async () => {
  server = await startListeningApp('pglite');
  key = await signUpOver(server.url, 'request-headers@example.org');
}, 60_000);
afterAll(() => server?.close());

/** GET /api/farms with raw header fields: a field given as a list is sent once per value. */
function listFarms(headers: Record<string, string | string[]>): Promise<{ status: number; body: { type?: string } }> {
  return new Promise((resolve, reject) => {
    const call = request(`${server.url}/api/farms`, { headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) as { type?: string } }));
    });
    call.on('error', reject);
    call.end();
  });
}

describe('API key header fields over HTTP', () => {
  it('accept the key in X-API-Key, spaces around it included, and as Authorization: Bearer', async () => {
    expect((await listFarms({ 'x-api-key': key })).status).toBe(200);
    expect((await listFarms({ 'x-api-key': `  ${key} ` })).status).toBe(200);
    expect((await listFarms({ authorization: `Bearer ${key}` })).status).toBe(200);
  });

  it('refuse both fields at once (400) and a repeated field (401), as answered in-process', async () => {
    const both = await listFarms({ 'x-api-key': key, authorization: `Bearer ${key}` });
    expect(both.status).toBe(400);
    expect(both.body.type).toMatch(/\/ambiguous-api-key$/);
    const twice = await listFarms({ authorization: [`Bearer ${key}`, `Bearer ${key}`] });
    expect(twice.status).toBe(401);
    expect((await listFarms({ 'x-api-key': [key, key] })).status).toBe(401);
  });
});
