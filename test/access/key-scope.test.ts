// Every operation of the OpenAPI document with a read-only key and with a key limited to another farm,
// both of the fixture farm's owner (the owner of its organisation too): the exact status, and a refused
// request changes nothing. The answer to a farm operation follows from what it does (operations.ts): a
// read-only key reads and calculates, and is refused every change (403); a key limited to another farm
// gets 404 for everything on the fixture farm, as a user without a role does. In an organisation both
// read what the owner may, and change nothing (403): a change there (a member added) would reach beyond
// a limited key's farms. An operation without a rule fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { tablesDigest } from '../helpers/digest.js';
import { buildFixture, documentedOperations, pathOn, ruleOf, rules, TABLES, type Fixture, type Rule, type Users } from './operations.js';

type ScopedKey = 'read' | 'otherFarm';

function expectedStatus(rule: Rule, key: ScopedKey, method: string): number {
  if (rule.scope === 'user') return rule.keys[key];
  if (rule.scope === 'organisation') return method === 'GET' ? rule.ok : 403;
  if (key === 'otherFarm') return 404;
  return rule.action === 'read' || rule.action === 'oversee' ? rule.ok : 403;
}

/** A key of the user of `cookie`, created with the session. */
async function keyOf(t: TestApp, cookie: string, body: Record<string, unknown>) {
  const response = await t.app.request('/api/keys', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', cookie },
  });
  if (response.status !== 201) throw new Error(`key creation failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { key: string; id: string; access: string; farms: string[] | null };
}

describe.each(storageKinds)('every operation with a scoped key on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let fixture: Fixture;
  let otherFarm: string;
  let keys: Record<ScopedKey, string>;
  let operations: Array<{ method: string; path: string }>;
  const fixtureOf = () => buildFixture(t.app, users);
  beforeAll(async () => {
    t = await startTestApp(kind);
    const [owner, researcher, advisor, none, otherOwner, grantee] = await Promise.all(
      Array.from({ length: 6 }, () => signUpWithKey(t.app)),
    );
    users = { owner: owner!, researcher: researcher!, advisor: advisor!, none: none!, 'other-owner': otherOwner!, grantee: grantee! };
    fixture = await fixtureOf();
    otherFarm = (await createFarm(t.app, users.owner.key, { b_name_farm: 'The other farm' })).b_id_farm;
    keys = {
      read: (await keyOf(t, users.owner.cookie, { name: 'read only', access: 'read' })).key,
      otherFarm: (await keyOf(t, users.owner.cookie, { name: 'other farm', farms: [otherFarm] })).key,
    };
    operations = await documentedOperations(t.app);
  }, 120_000);
  afterAll(() => t.close());

  it('has a rule for every operation of the OpenAPI document', () => {
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(Object.keys(rules).sort());
  });

  it.each<ScopedKey>(['read', 'otherFarm'])(
    'answers every operation with the %s key as its rule says, and refusals change nothing',
    async (key) => {
      const failures: string[] = [];
      for (const operation of operations) {
        const rule = ruleOf(operation);
        const path = await pathOn(
          operation.path,
          fixture,
          users,
          async () => (await keyOf(t, users.owner.cookie, { name: 'to revoke' })).id,
        );
        const expected = expectedStatus(rule, key, operation.method);
        const before = expected >= 400 ? await tablesDigest(t, TABLES) : undefined;
        const response = await call(t.app, keys[key], operation.method, path, rule.body?.(fixture, users));
        if (response.status !== expected) {
          failures.push(`${operation.method} ${operation.path}: ${response.status} (expected ${expected}) ${await response.text()}`);
        } else if (expected === 403 || expected === 404) {
          const problem = (await response.json()) as { type: string };
          if (problem.type !== `https://akker.test/errors/${expected === 403 ? 'forbidden' : 'not-found'}`)
            failures.push(`${operation.method} ${operation.path}: ${problem.type}`);
        }
        if (before !== undefined && (await tablesDigest(t, TABLES)) !== before)
          failures.push(`${operation.method} ${operation.path}: refused, but the data changed`);
        // Only when the key is let through where it should not be: the next operations need the fixture whole.
        if (operation.method === 'DELETE' && response.status < 400) fixture = await fixtureOf();
      }
      expect(failures).toEqual([]);
    },
    240_000,
  );
});
