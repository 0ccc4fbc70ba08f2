// Every endpoint of the OpenAPI document × {no role, researcher, advisor, owner, another farm's owner}:
// the exact status, and a refused request changes nothing. An endpoint without a rule fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { tablesDigest } from '../helpers/digest.js';
import { created, farmWithEverything, organicCertificationBody, rectangle, type FarmFixture } from '../helpers/fixtures.js';

type Role = 'none' | 'researcher' | 'advisor' | 'owner' | 'other-owner';
const ROLES: Role[] = ['none', 'researcher', 'advisor', 'owner', 'other-owner'];

/** The fixture farm, and an organisation of its owner (researcher a member, advisor an admin, grantee a member) that it is shared with. */
type Fixture = FarmFixture & { org_id: string };

/**
 * What an operation needs: `farm` operations act on the fixture farm with `action`;
 * `user` operations act on the caller's own things (their farm list, their keys, the catalogues).
 */
type Rule =
  | { scope: 'farm'; action: 'read' | 'write' | 'share'; ok: number; body?: (f: Fixture, users: Users) => unknown; ownToo?: Role }
  | { scope: 'organisation'; least: OrganisationRole; ok: number; body?: (f: Fixture, users: Users) => unknown }
  | { scope: 'user'; ok: number; body?: () => unknown };

type OrganisationRole = 'owner' | 'admin' | 'member';
/** Each caller's role in the fixture's organisation. */
const organisationRoleOf: Partial<Record<Role, OrganisationRole>> = { researcher: 'member', advisor: 'admin', owner: 'owner' };
const organisationRank: Record<OrganisationRole, number> = { owner: 0, admin: 1, member: 2 };

interface Users {
  owner: Account;
  researcher: Account;
  advisor: Account;
  none: Account;
  'other-owner': Account;
  grantee: Account;
}

const rules: Record<string, Rule> = {
  'GET /api/farms': { scope: 'user', ok: 200 },
  'POST /api/farms': { scope: 'user', ok: 201, body: () => ({ b_name_farm: 'Own farm' }) },
  'GET /api/farms/{b_id_farm}': { scope: 'farm', action: 'read', ok: 200 },
  'PATCH /api/farms/{b_id_farm}': { scope: 'farm', action: 'write', ok: 200, body: () => ({ b_name_farm: 'Renamed' }) },
  'DELETE /api/farms/{b_id_farm}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/farms/{b_id_farm}/fields': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/farms/{b_id_farm}/fields': {
    scope: 'farm',
    action: 'write',
    ok: 201,
    body: () => ({ b_name: 'New', b_geometry: rectangle(), b_start: '2020-01-01' }),
  },
  'GET /api/fields/{b_id}': { scope: 'farm', action: 'read', ok: 200 },
  'PATCH /api/fields/{b_id}': { scope: 'farm', action: 'write', ok: 200, body: () => ({ b_name: 'Renamed' }) },
  'DELETE /api/fields/{b_id}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/fields/{b_id}/cultivations': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/fields/{b_id}/cultivations': {
    scope: 'farm',
    action: 'write',
    ok: 201,
    body: () => ({ b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' }),
  },
  'GET /api/cultivations/{b_lu}': { scope: 'farm', action: 'read', ok: 200 },
  'PATCH /api/cultivations/{b_lu}': { scope: 'farm', action: 'write', ok: 200, body: () => ({ m_cropresidue: true }) },
  'DELETE /api/cultivations/{b_lu}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/cultivations/{b_lu}/harvests': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/cultivations/{b_lu}/harvests': {
    scope: 'farm',
    action: 'write',
    ok: 201,
    body: () => ({ b_lu_harvest_date: '2025-07-01', b_lu_yield: 3000, b_lu_cp: 170 }),
  },
  'GET /api/harvests/{b_id_harvesting}': { scope: 'farm', action: 'read', ok: 200 },
  'PATCH /api/harvests/{b_id_harvesting}': { scope: 'farm', action: 'write', ok: 200, body: () => ({ b_lu_cp: 180 }) },
  'DELETE /api/harvests/{b_id_harvesting}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/fields/{b_id}/soil-analyses': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/fields/{b_id}/soil-analyses': { scope: 'farm', action: 'write', ok: 201, body: () => ({ a_som_loi: 3 }) },
  'GET /api/soil-analyses/{a_id}': { scope: 'farm', action: 'read', ok: 200 },
  'PATCH /api/soil-analyses/{a_id}': { scope: 'farm', action: 'write', ok: 200, body: () => ({ a_som_loi: 4 }) },
  'DELETE /api/soil-analyses/{a_id}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/fields/{b_id}/current-soil-data': { scope: 'farm', action: 'read', ok: 200 },
  'GET /api/farms/{b_id_farm}/fertilizers': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/farms/{b_id_farm}/fertilizers': { scope: 'farm', action: 'write', ok: 201, body: () => ({ p_id_catalogue: 'BAAT001' }) },
  'GET /api/fertilizers/{p_id}': { scope: 'farm', action: 'read', ok: 200 },
  'DELETE /api/fertilizers/{p_id}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/fields/{b_id}/fertilizer-applications': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/fields/{b_id}/fertilizer-applications': {
    scope: 'farm',
    action: 'write',
    ok: 201,
    body: (f) => ({ p_id: f.usedFertilizer, p_app_amount_display: 100, p_app_method: 'broadcasting', p_app_date: '2025-03-01' }),
  },
  'GET /api/fertilizer-applications/{p_app_id}': { scope: 'farm', action: 'read', ok: 200 },
  'PATCH /api/fertilizer-applications/{p_app_id}': { scope: 'farm', action: 'write', ok: 200, body: () => ({ p_app_amount_display: 200 }) },
  'DELETE /api/fertilizer-applications/{p_app_id}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/farms/{b_id_farm}/derogations': { scope: 'farm', action: 'read', ok: 200 },
  // The fixture holds the derogation of its year already: idempotent, 200.
  'PUT /api/farms/{b_id_farm}/derogations/{year}': { scope: 'farm', action: 'write', ok: 200 },
  'DELETE /api/farms/{b_id_farm}/derogations/{year}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/farms/{b_id_farm}/grazing-intentions': { scope: 'farm', action: 'read', ok: 200 },
  'PUT /api/farms/{b_id_farm}/grazing-intentions/{year}': {
    scope: 'farm',
    action: 'write',
    ok: 200,
    body: () => ({ b_grazing_intention: true }),
  },
  'GET /api/farms/{b_id_farm}/organic-certifications': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/farms/{b_id_farm}/organic-certifications': { scope: 'farm', action: 'write', ok: 201, body: () => organicCertificationBody },
  'GET /api/organic-certifications/{b_id_organic}': { scope: 'farm', action: 'read', ok: 200 },
  'DELETE /api/organic-certifications/{b_id_organic}': { scope: 'farm', action: 'write', ok: 204 },
  'GET /api/farms/{b_id_farm}/access': { scope: 'farm', action: 'share', ok: 200 },
  'PUT /api/farms/{b_id_farm}/access': {
    scope: 'farm',
    action: 'share',
    ok: 200,
    body: (_, users) => ({ email: users.grantee.email, role: 'researcher' }),
  },
  // The address is the advisor's: removing one's own role takes no more than reading the farm.
  'DELETE /api/farms/{b_id_farm}/access/{email}': { scope: 'farm', action: 'share', ok: 204, ownToo: 'advisor' },
  'DELETE /api/farms/{b_id_farm}/access/organisations/{org_id}': { scope: 'farm', action: 'share', ok: 204 },
  'GET /api/organisations': { scope: 'user', ok: 200 },
  'POST /api/organisations': { scope: 'user', ok: 201, body: () => ({ name: 'Own organisation' }) },
  'GET /api/organisations/{org_id}': { scope: 'organisation', least: 'member', ok: 200 },
  'PATCH /api/organisations/{org_id}': { scope: 'organisation', least: 'admin', ok: 200, body: () => ({ name: 'Renamed' }) },
  'DELETE /api/organisations/{org_id}': { scope: 'organisation', least: 'owner', ok: 204 },
  'GET /api/organisations/{org_id}/members': { scope: 'organisation', least: 'member', ok: 200 },
  'PUT /api/organisations/{org_id}/members': {
    scope: 'organisation',
    least: 'admin',
    ok: 200,
    body: (_, users) => ({ email: users.grantee.email, role: 'admin' }),
  },
  // The address is the grantee's, a member.
  'DELETE /api/organisations/{org_id}/members/{email}': { scope: 'organisation', least: 'admin', ok: 204 },
  'GET /api/organisations/{org_id}/audit': { scope: 'organisation', least: 'admin', ok: 200 },
  'GET /api/farms/{b_id_farm}/audit': { scope: 'farm', action: 'share', ok: 200 },
  'GET /api/farms/{b_id_farm}/changes': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/farms/{b_id_farm}/calculations/nitrogen-balance': {
    scope: 'farm',
    action: 'read',
    ok: 200,
    body: () => ({ start: '2025-01-01', end: '2025-12-31' }),
  },
  'POST /api/fields/{b_id}/calculations/nitrogen-balance': {
    scope: 'farm',
    action: 'read',
    ok: 200,
    body: () => ({ start: '2025-01-01', end: '2025-12-31' }),
  },
  'POST /api/fields/{b_id}/calculations/dose': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/farms/{b_id_farm}/calculations/organic-matter-balance': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/fields/{b_id}/calculations/organic-matter-balance': { scope: 'farm', action: 'read', ok: 200 },
  'POST /api/farms/{b_id_farm}/calculations/norms': { scope: 'farm', action: 'read', ok: 200, body: () => ({ year: 2025 }) },
  'POST /api/fields/{b_id}/calculations/norms': { scope: 'farm', action: 'read', ok: 200, body: () => ({ year: 2025 }) },
  'GET /api/keys': { scope: 'user', ok: 200 },
  'POST /api/keys': { scope: 'user', ok: 201, body: () => ({ name: 'matrix' }) },
  'DELETE /api/keys/{id}': { scope: 'user', ok: 204 },
  'GET /api/catalogues/cultivations': { scope: 'user', ok: 200 },
  'GET /api/catalogues/fertilizers': { scope: 'user', ok: 200 },
};

const allowed: Record<'read' | 'write' | 'share', Role[]> = {
  read: ['researcher', 'advisor', 'owner'],
  write: ['advisor', 'owner'],
  share: ['owner'],
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

const TABLES = [
  'users',
  'farms',
  'farm_access',
  'fields',
  'cultivations',
  'harvests',
  'soil_analyses',
  'farm_fertilizers',
  'fertilizer_applications',
  'derogations',
  'grazing_intentions',
  'organic_certifications',
  'audit_log',
  'organisations',
  'organisation_members',
  'organisation_farm_access',
  'organisation_audit',
  'pending_farm_access',
  'pending_organisation_members',
];

let t: TestApp;
let users: Users;
let operations: Array<{ method: string; path: string }>;

async function buildFixture(): Promise<Fixture> {
  const farm = await farmWithEverything((path, init) => Promise.resolve(t.app.request(path, init)), users.owner.key, [
    { email: users.researcher.email, role: 'researcher' },
    { email: users.advisor.email, role: 'advisor' },
  ]);
  const org = await created<{ id: string }>(call(t.app, users.owner.key, 'POST', '/api/organisations', { name: 'Fixture firm' }));
  for (const [account, role] of [
    [users.researcher, 'member'],
    [users.advisor, 'admin'],
    [users.grantee, 'member'],
  ] as const) {
    const added = await call(t.app, users.owner.key, 'PUT', `/api/organisations/${org.id}/members`, { email: account.email, role });
    if (added.status !== 200) throw new Error(`membership answered ${added.status}`);
  }
  const shared = await call(t.app, users.owner.key, 'PUT', `/api/farms/${farm.b_id_farm}/access`, {
    organisation: org.id,
    role: 'researcher',
  });
  if (shared.status !== 200) throw new Error(`sharing answered ${shared.status}`);
  return { ...farm, org_id: org.id };
}

async function pathFor(template: string, role: Role, fixture: Fixture): Promise<string> {
  const caller = users[role];
  let path = template;
  for (const [name] of template.matchAll(/\{(\w+)\}/g)) {
    const param = name.slice(1, -1);
    let value: string;
    if (param === 'email') value = template.startsWith('/api/organisations/') ? users.grantee.email : users.advisor.email;
    else if (param === 'id')
      value = ((await (await call(t.app, caller.key, 'POST', '/api/keys', { name: 'to revoke' })).json()) as { id: string }).id;
    else value = fixture[param as keyof Fixture];
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
  const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  // The operations that take a key (the description endpoints are public).
  operations = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.security?.length !== 0)
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
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
