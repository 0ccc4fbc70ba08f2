// Every endpoint of the OpenAPI document × {no role, researcher, advisor, owner, another farm's owner}:
// the exact status, and a refused request changes nothing. An endpoint without a rule fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, signUpWithKey, startTestApp, type TestApp } from '../helpers/app.js';
import { tablesDigest } from '../helpers/digest.js';
import type { Action } from '../../src/access/roles.js';
import {
  buildFixture,
  documentedOperations,
  pathOn,
  rules,
  TABLES,
  type Fixture,
  type OrganisationRole,
  type Role,
  type Rule,
  type Users,
} from './operations.js';

const ROLES: Role[] = ['none', 'researcher', 'advisor', 'owner', 'other-owner'];

/** Each caller's role in the fixture's organisation. */
const organisationRoleOf: Partial<Record<Role, OrganisationRole>> = { researcher: 'member', advisor: 'admin', owner: 'owner' };
const organisationRank: Record<OrganisationRole, number> = { owner: 0, admin: 1, member: 2 };

const allowed: Record<Action, Role[]> = {
  read: ['researcher', 'advisor', 'owner'],
  oversee: ['owner'],
  write: ['advisor', 'owner'],
  share: ['owner'],
  leave: ['researcher', 'advisor', 'owner'],
};

function expectedStatus(rule: Rule, role: Role): number {
  if (rule.scope === 'user') return rule.ok;
  if (rule.scope === 'organisation') {
    const held = organisationRoleOf[role];
    if (held === undefined) return 404;
    return organisationRank[held] <= organisationRank[rule.least] ? rule.ok : 403;
  }
  if (allowed[rule.action].includes(role) || rule.ownToo === role) return rule.ok;
  return role === 'researcher' || role === 'advisor' ? 403 : 404;
}

let t: TestApp;
let users: Users;
let operations: Array<{ method: string; path: string }>;

const fixtureOf = () => buildFixture(t.app, users);

/** The path of an operation for `role`: a key to revoke is one of the caller's own. */
const pathFor = (template: string, role: Role, fixture: Fixture) =>
  pathOn(template, fixture, users, async () => {
    const made = await call(t.app, users[role].key, 'POST', '/api/keys', { name: 'to revoke' });
    return ((await made.json()) as { id: string }).id;
  });

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
    let fixture = await fixtureOf();
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
        if (method === 'DELETE' && response.status < 400) fixture = await fixtureOf();
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
