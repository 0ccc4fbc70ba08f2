// Every endpoint of the OpenAPI document × {no role, researcher, advisor, owner, another farm's owner}:
// the exact status, and a refused request changes nothing. An endpoint without a rule fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';
import { tablesDigest } from '../helpers/digest.js';
import { farmWithEverything, type FarmFixture } from '../helpers/fixtures.js';
import type { Action } from '../../src/access/roles.js';
import { documentedOperations, rules, TABLES, type Rule, type Users } from './operations.js';

type Role = 'none' | 'researcher' | 'advisor' | 'owner' | 'other-owner';
const ROLES: Role[] = ['none', 'researcher', 'advisor', 'owner', 'other-owner'];

const allowed: Record<Action, Role[]> = {
  read: ['researcher', 'advisor', 'owner'],
  oversee: ['owner'],
  write: ['advisor', 'owner'],
  share: ['owner'],
};

function expectedStatus(rule: Rule, role: Role): number {
  if (rule.scope === 'user') return rule.ok;
  if (allowed[rule.action].includes(role)) return rule.ok;
  return role === 'researcher' || role === 'advisor' ? 403 : 404;
}

let t: TestApp;
let users: Users;
let operations: Array<{ method: string; path: string }>;

const buildFixture = () =>
  farmWithEverything((path, init) => Promise.resolve(t.app.request(path, init)), users.owner.key, [
    { email: users.researcher.email, role: 'researcher' },
    { email: users.advisor.email, role: 'advisor' },
  ]);

async function pathFor(template: string, role: Role, fixture: FarmFixture): Promise<string> {
  const caller = users[role];
  let path = template;
  for (const [name] of template.matchAll(/\{(\w+)\}/g)) {
    const param = name.slice(1, -1);
    let value: string;
    if (param === 'email') value = users.advisor.email;
    else if (param === 'id')
      value = ((await (await call(t.app, caller.key, 'POST', '/api/keys', { name: 'to revoke' })).json()) as { id: string }).id;
    else value = fixture[param as keyof FarmFixture];
    path = path.replace(name, encodeURIComponent(value));
  }
  return path;
}

beforeAll(async () => {
  t = await startTestApp('pglite');
  users = {
    owner: await signUpWithKey(t.app),
    researcher: await signUpWithKey(t.app),
    advisor: await signUpWithKey(t.app),
    none: await signUpWithKey(t.app),
    'other-owner': await signUpWithKey(t.app),
    grantee: await signUpWithKey(t.app),
  };
  await createFarm(t.app, users['other-owner'].key);
  operations = await documentedOperations(t.app);
});
afterAll(() => t.close());

describe('access matrix', () => {
  it('has a rule for every operation of the OpenAPI document, and no rule for an operation that is gone', () => {
    const documented = operations.map((o) => `${o.method} ${o.path}`).sort();
    expect(documented).toEqual(Object.keys(rules).sort());
  });

  it('answers every operation for every role with the exact status, and refusals change nothing', async () => {
    const failures: string[] = [];
    let fixture = await buildFixture();
    for (const { method, path } of operations) {
      const rule = rules[`${method} ${path}`]!;
      for (const role of ROLES) {
        const target = await pathFor(path, role, fixture);
        const expected = expectedStatus(rule, role);
        const before = expected >= 400 ? await tablesDigest(t, TABLES) : undefined;
        const response = await call(t.app, users[role].key, method, target, rule.body?.(fixture, users));
        if (response.status !== expected)
          failures.push(`${method} ${path} as ${role}: ${response.status} (expected ${expected}) ${await response.text()}`);
        if (before !== undefined && (await tablesDigest(t, TABLES)) !== before)
          failures.push(`${method} ${path} as ${role}: refused, but the data changed`);
        // A delete that went through removed part of the fixture: the next cell starts from a new one. Other
        // writes that go through rename or add records, and leave every record the next cells need in place.
        if (method === 'DELETE' && response.status < 400) fixture = await buildFixture();
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
