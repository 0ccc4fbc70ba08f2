// A user holds at most MAX_KEYS_PER_USER active keys, through the API and the Developer Settings
// page alike; creations that race each other cannot go past the cap.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, signUpWithKey } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';
import { signedUpClient } from './form-client.js';

const CAP = 5;
const KEYS_PAGE = '/account/developer-settings/api-keys';

describe.each(storageKinds)('the cap on active keys per user on %s', (kind) => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp(kind, { MAX_KEYS_PER_USER: String(CAP) });
  });
  afterAll(() => t.close());

  const activeKeys = async (key: string) =>
    ((await (await call(t.app, key, 'GET', '/api/keys')).json()) as { pagination: { total: number } }).pagination.total;

  it('lets concurrent creations over sockets fill the cap exactly, refuses the rest with 409, and has room again after a revocation', async () => {
    const user = await signUpWithKey(t.app); // holds one key already
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => t.send(user.key, 'POST', '/api/keys', { name: `race ${i}` })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(CAP - 1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(12 - (CAP - 1));
    const refused = await expectProblem(
      responses.find((r) => r.status === 409)!,
      409,
      'conflict',
    );
    expect(refused.detail).toContain(`${CAP} active API keys`);
    expect(await activeKeys(user.key)).toBe(CAP);

    const created = (await Promise.all(responses.filter((r) => r.status === 201).map((r) => r.json()))) as Array<{ id: string }>;
    expect((await t.send(user.key, 'DELETE', `/api/keys/${created[0]!.id}`)).status).toBe(204);
    expect((await t.send(user.key, 'POST', '/api/keys', { name: 'after revoking' })).status).toBe(201);
    await expectProblem(await t.send(user.key, 'POST', '/api/keys', { name: 'one too many' }), 409, 'conflict');
  });

  it('counts only active keys: expired and revoked ones leave room', async () => {
    const user = await signUpWithKey(t.app);
    const created: string[] = [];
    for (let i = 0; i < CAP - 1; i++) {
      const response = await t.send(user.key, 'POST', '/api/keys', { name: `k${i}` });
      created.push(((await response.json()) as { id: string }).id);
    }
    await expectProblem(await t.send(user.key, 'POST', '/api/keys', { name: 'full' }), 409, 'conflict');
    // Two keys expire (as if their time had come), one is revoked: three places free up.
    await t.database.db.execute(
      sql`update api_keys set expires_at = now() - interval '1 second' where key_id in (${created[0]!}, ${created[1]!})`,
    );
    expect((await t.send(user.key, 'DELETE', `/api/keys/${created[2]!}`)).status).toBe(204);
    for (let i = 0; i < 3; i++) expect((await t.send(user.key, 'POST', '/api/keys', { name: `again ${i}` })).status).toBe(201);
    await expectProblem(await t.send(user.key, 'POST', '/api/keys', { name: 'full again' }), 409, 'conflict');
  });

  it('keeps each user to their own cap', async () => {
    const first = await signUpWithKey(t.app);
    for (let i = 1; i < CAP; i++) await t.send(first.key, 'POST', '/api/keys', { name: `k${i}` });
    const second = await signUpWithKey(t.app);
    expect((await t.send(second.key, 'POST', '/api/keys', { name: 'mine' })).status).toBe(201);
  });

  it('refuses a key created on the Developer Settings page at the cap, and says why on the page', async () => {
    const { client } = await signedUpClient(t.app);
    for (let i = 0; i < CAP; i++)
      expect((await client.submit(KEYS_PAGE, KEYS_PAGE, { name: `page ${i}`, expiry: 'never' })).status).toBe(303);
    const refused = await client.submit(KEYS_PAGE, KEYS_PAGE, { name: 'one too many', expiry: 'never' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain(`${CAP} active API keys`);
    expect(refused.html).toContain('value="one too many"');
    expect(refused.html).not.toContain('id="new-key"');
    expect((await client.get(KEYS_PAGE)).html.match(/<tr><td><code>akk_/g)).toHaveLength(CAP);
  });

  it('counts keys made on the page and through the API together', async () => {
    const { client } = await signedUpClient(t.app);
    for (let i = 0; i < CAP - 1; i++) await client.submit(KEYS_PAGE, KEYS_PAGE, { name: `page ${i}`, expiry: 'never' });
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const viaApi = await t.app.request('/api/keys', {
      method: 'POST',
      body: JSON.stringify({ name: 'script' }),
      headers: { 'content-type': 'application/json', cookie },
    });
    expect(viaApi.status).toBe(201);
    expect((await client.submit(KEYS_PAGE, KEYS_PAGE, { name: 'page again', expiry: 'never' })).status).toBe(409);
  });
});
