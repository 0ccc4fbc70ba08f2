// The operations of the OpenAPI document and what each needs, for the tests that walk them all with
// every role (matrix.test.ts) and with scoped keys (key-scope.test.ts). An operation without a rule fails both.
import type { App } from '../../src/app/app.js';
import type { Action } from '../../src/access/roles.js';
import { call, type Account } from '../helpers/app.js';
import { created, farmWithEverything, organicCertificationBody, rectangle, type FarmFixture } from '../helpers/fixtures.js';

/** The fixture farm, and an organisation of its owner (researcher a member, advisor an admin, grantee a member) that it is shared with. */
export type Fixture = FarmFixture & { org_id: string };

export type OrganisationRole = 'owner' | 'admin' | 'member';

/** What a key limited in scope answers to an operation that acts on the caller's own things. */
interface KeyAnswers {
  /** With a read-only key. */
  read: number;
  /** With a key limited to another farm than the fixture's. */
  otherFarm: number;
}

/**
 * What an operation needs: `farm` operations act on the fixture farm with `action`; `organisation` ones on
 * the fixture's organisation, with at least the role `least` in it; `user` operations act on the caller's
 * own things (their farm list, their keys, the catalogues), and say what a scoped key gets (the answer of
 * the others to one follows from what they do: see key-scope.test.ts).
 */
export type Rule =
  | { scope: 'farm'; action: Action; ok: number; body?: (f: Fixture, users: Users) => unknown; ownToo?: Role }
  | { scope: 'organisation'; least: OrganisationRole; ok: number; body?: (f: Fixture, users: Users) => unknown }
  | { scope: 'user'; ok: number; keys: KeyAnswers; body?: () => unknown };

export type Role = 'none' | 'researcher' | 'advisor' | 'owner' | 'other-owner';

export interface Users {
  owner: Account;
  researcher: Account;
  advisor: Account;
  none: Account;
  'other-owner': Account;
  grantee: Account;
}

export const rules: Record<string, Rule> = {
  'GET /api/farms': { scope: 'user', ok: 200, keys: { read: 200, otherFarm: 200 } },
  'POST /api/farms': { scope: 'user', ok: 201, keys: { read: 403, otherFarm: 403 }, body: () => ({ b_name_farm: 'Own farm' }) },
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
  'GET /api/farms/{b_id_farm}/access': { scope: 'farm', action: 'oversee', ok: 200 },
  'PUT /api/farms/{b_id_farm}/access': {
    scope: 'farm',
    action: 'share',
    ok: 200,
    body: (_, users) => ({ email: users.grantee.email, role: 'researcher' }),
  },
  // The address is the advisor's: removing one's own role takes no more than reading the farm.
  'DELETE /api/farms/{b_id_farm}/access/{email}': { scope: 'farm', action: 'share', ok: 204, ownToo: 'advisor' },
  'DELETE /api/farms/{b_id_farm}/access/organisations/{org_id}': { scope: 'farm', action: 'share', ok: 204 },
  'GET /api/organisations': { scope: 'user', ok: 200, keys: { read: 200, otherFarm: 200 } },
  'POST /api/organisations': { scope: 'user', ok: 201, keys: { read: 403, otherFarm: 403 }, body: () => ({ name: 'Own organisation' }) },
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
  'GET /api/farms/{b_id_farm}/audit': { scope: 'farm', action: 'oversee', ok: 200 },
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
  'GET /api/keys': { scope: 'user', ok: 200, keys: { read: 403, otherFarm: 403 } },
  'POST /api/keys': { scope: 'user', ok: 201, keys: { read: 403, otherFarm: 403 }, body: () => ({ name: 'matrix' }) },
  'DELETE /api/keys/{id}': { scope: 'user', ok: 204, keys: { read: 403, otherFarm: 403 } },
  'GET /api/catalogues/cultivations': { scope: 'user', ok: 200, keys: { read: 200, otherFarm: 200 } },
  'GET /api/catalogues/fertilizers': { scope: 'user', ok: 200, keys: { read: 200, otherFarm: 200 } },
};

/** The tables of farm data, access and organisations: a refused request changes none of them. */
export const TABLES = [
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

/** The fixture, built through the API by its owner with a key that holds all the owner's access. */
export async function buildFixture(app: App, users: Users): Promise<Fixture> {
  const farm = await farmWithEverything((path, init) => Promise.resolve(app.request(path, init)), users.owner.key, [
    { email: users.researcher.email, role: 'researcher' },
    { email: users.advisor.email, role: 'advisor' },
  ]);
  const org = await created<{ id: string }>(call(app, users.owner.key, 'POST', '/api/organisations', { name: 'Fixture firm' }));
  for (const [account, role] of [
    [users.researcher, 'member'],
    [users.advisor, 'admin'],
    [users.grantee, 'member'],
  ] as const) {
    const added = await call(app, users.owner.key, 'PUT', `/api/organisations/${org.id}/members`, { email: account.email, role });
    if (added.status !== 200) throw new Error(`membership answered ${added.status}`);
  }
  const shared = await call(app, users.owner.key, 'PUT', `/api/farms/${farm.b_id_farm}/access`, {
    organisation: org.id,
    role: 'researcher',
  });
  if (shared.status !== 200) throw new Error(`sharing answered ${shared.status}`);
  return { ...farm, org_id: org.id };
}

/** The operations of the document that take a key (the description endpoints are public). */
export async function documentedOperations(app: App): Promise<Array<{ method: string; path: string }>> {
  const doc = (await (await app.request('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.security?.length !== 0)
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
}

/** The rule of an operation; an operation without one fails the test that asks. */
export function ruleOf(operation: { method: string; path: string }): Rule {
  const rule = rules[`${operation.method} ${operation.path}`];
  if (rule === undefined) throw new Error(`${operation.method} ${operation.path} has no rule in test/access/operations.ts`);
  return rule;
}

/**
 * The path of an operation on the fixture; `keyToRevoke` makes the key that `{id}` names. An `{email}` names
 * the grantee in the organisation and the advisor on the farm.
 */
export async function pathOn(template: string, fixture: Fixture, users: Users, keyToRevoke: () => Promise<string>): Promise<string> {
  let path = template;
  for (const [name, param] of template.matchAll(/\{(\w+)\}/g)) {
    let value: string;
    if (param === 'email') value = template.startsWith('/api/organisations/') ? users.grantee.email : users.advisor.email;
    else if (param === 'id') value = await keyToRevoke();
    else value = fixture[param as keyof Fixture];
    path = path.replace(name, encodeURIComponent(value));
  }
  return path;
}
