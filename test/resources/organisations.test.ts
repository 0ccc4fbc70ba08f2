// Organisations: members and their roles, farms shared with them, the effective role, trails and limits.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBERS_PER_ORGANISATION, ORGANISATIONS_PER_USER } from '../../src/access/organisation-roles.js';
import {
  call,
  createFarm,
  expectProblem,
  signUpWithKey,
  startTestApp,
  withTwoProcessesOnPostgres,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import type { App } from '../../src/app/app.js';
import { storageKinds } from '../helpers/databases.js';
import { createField } from '../helpers/fixtures.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}
type Organisation = { id: string; name: string; role: string; created_at: string; updated_at: string };
type Member = { email: string; name: string | null; role: string; created_at: string };
type ListedFarm = { b_id_farm: string; role: string };

const body = async <T>(response: Response | Promise<Response>, status = 200): Promise<T> => {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
};

const organisationsOn = (app: App) => ({
  create: (by: Account, name = 'Akkerbouw Advies BV') => body<Organisation>(call(app, by.key, 'POST', '/api/organisations', { name }), 201),
  member: (by: Account, org: string, email: string, role: string) =>
    call(app, by.key, 'PUT', `/api/organisations/${org}/members`, { email, role }),
  remove: (by: Account, org: string, email: string) =>
    call(app, by.key, 'DELETE', `/api/organisations/${org}/members/${encodeURIComponent(email)}`),
  members: (by: Account, org: string) => body<Page<Member>>(call(app, by.key, 'GET', `/api/organisations/${org}/members`)),
  share: (by: Account, farm: string, organisation: string, role: string) =>
    call(app, by.key, 'PUT', `/api/farms/${farm}/access`, { organisation, role }),
  unshare: (by: Account, farm: string, org: string) => call(app, by.key, 'DELETE', `/api/farms/${farm}/access/organisations/${org}`),
  farms: (by: Account, query = '') => body<Page<ListedFarm>>(call(app, by.key, 'GET', `/api/farms${query}`)),
});

describe.each(storageKinds)('organisations on %s', (kind) => {
  let t: TestApp;
  let o: ReturnType<typeof organisationsOn>;
  let owner: Account;
  let advisor: Account;
  let outsider: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    o = organisationsOn(t.app);
    [owner, advisor, outsider] = [await signUpWithKey(t.app), await signUpWithKey(t.app), await signUpWithKey(t.app)];
  });
  afterAll(() => t.close());

  it('creates, lists, reads, renames and deletes; a non-member gets 404 and a member without the role 403', async () => {
    const created = await o.create(owner);
    expect(created).toMatchObject({ name: 'Akkerbouw Advies BV', role: 'owner' });
    expect(Object.keys(created).sort()).toEqual(['created_at', 'id', 'name', 'role', 'updated_at']);
    const path = `/api/organisations/${created.id}`;
    const read = await call(t.app, owner.key, 'GET', path);
    expect(read.headers.get('etag')).toBeTruthy();
    expect(await read.json()).toEqual(created);

    const listed = await body<Page<Organisation>>(call(t.app, owner.key, 'GET', '/api/organisations'));
    expect(listed.data.map((org) => org.id)).toContain(created.id);
    expect(
      (await body<Page<Organisation>>(call(t.app, outsider.key, 'GET', '/api/organisations'))).data.map((org) => org.id),
    ).not.toContain(created.id);
    for (const [method, route, sent] of [
      ['GET', path, undefined],
      ['PATCH', path, { name: 'x' }],
      ['DELETE', path, undefined],
      ['GET', `${path}/members`, undefined],
      ['PUT', `${path}/members`, { email: outsider.email, role: 'member' }],
      ['GET', `${path}/audit`, undefined],
    ] as const) {
      await expectProblem(await call(t.app, outsider.key, method, route, sent), 404, 'not-found');
      await expectProblem(
        await call(t.app, outsider.key, method, route.replace(created.id, 'no-such-organisation'), sent),
        404,
        'not-found',
      );
    }

    expect((await o.member(owner, created.id, advisor.email, 'member')).status).toBe(200);
    await expectProblem(await call(t.app, advisor.key, 'PATCH', path, { name: 'By a member' }), 403, 'forbidden');
    await expectProblem(await call(t.app, advisor.key, 'GET', `${path}/audit`), 403, 'forbidden');
    await expectProblem(await o.member(advisor, created.id, outsider.email, 'member'), 403, 'forbidden');
    expect((await o.member(owner, created.id, advisor.email, 'admin')).status).toBe(200);
    const renamed = await body<Organisation>(call(t.app, advisor.key, 'PATCH', path, { name: 'Renamed BV' }));
    expect(renamed).toMatchObject({ name: 'Renamed BV', role: 'admin' });
    expect(renamed.updated_at > created.updated_at).toBe(true);
    await expectProblem(await call(t.app, advisor.key, 'DELETE', path), 403, 'forbidden');
    await expectProblem(await call(t.app, owner.key, 'PATCH', path, { name: '' }), 400, 'validation-failed');
    await expectProblem(await call(t.app, owner.key, 'PATCH', path, { name: 'x', extra: 1 }), 400, 'validation-failed');

    expect((await call(t.app, owner.key, 'DELETE', path)).status).toBe(204);
    await expectProblem(await call(t.app, owner.key, 'GET', path), 404, 'not-found');
    await expectProblem(await call(t.app, owner.key, 'DELETE', path), 404, 'not-found');
  });

  it('manages members: admins manage admins and members, owners owners; the last owner stays; anyone may leave', async () => {
    const org = (await o.create(owner)).id;
    const admin = await signUpWithKey(t.app);
    expect((await o.member(owner, org, admin.email, 'admin')).status).toBe(200);
    expect((await o.member(admin, org, advisor.email, 'member')).status).toBe(200);
    expect((await o.member(admin, org, advisor.email, 'admin')).status).toBe(200);
    await expectProblem(await o.member(admin, org, advisor.email, 'owner'), 403, 'forbidden');
    await expectProblem(await o.member(admin, org, owner.email, 'member'), 403, 'forbidden');
    await expectProblem(await o.remove(admin, org, owner.email), 403, 'forbidden');
    await expectProblem(await o.member(owner, org, owner.email, 'admin'), 409, 'conflict');
    await expectProblem(await o.remove(owner, org, owner.email), 409, 'conflict');
    await expectProblem(await o.member(owner, org, advisor.email, 'chief'), 400, 'validation-failed');
    await expectProblem(await o.member(owner, org, 'not an address', 'member'), 400, 'validation-failed');

    expect((await o.member(owner, org, admin.email, 'owner')).status).toBe(200);
    expect((await o.member(admin, org, owner.email, 'member')).status).toBe(200);
    expect((await o.remove(owner, org, owner.email)).status).toBe(204);
    await expectProblem(await call(t.app, owner.key, 'GET', `/api/organisations/${org}`), 404, 'not-found');
    expect((await o.remove(advisor, org, advisor.email)).status).toBe(204);
    await expectProblem(await o.remove(admin, org, advisor.email), 404, 'not-found');
    expect((await o.members(admin, org)).data.map((m) => [m.email, m.role])).toEqual([[admin.email, 'owner']]);
  });

  it('answers and lists an address nobody signed up with like any other; it becomes a member at sign-up', async () => {
    const org = (await o.create(owner)).id;
    const address = `colleague-${Date.now()}@example.org`;
    const waiting = await body<Member>(o.member(owner, org, address, 'member'));
    const known = await body<Member>(o.member(owner, org, outsider.email, 'member'));
    expect(waiting).toEqual({ email: address, name: null, role: 'member', created_at: waiting.created_at });
    expect(known).toEqual({ email: outsider.email, name: null, role: 'member', created_at: known.created_at });
    const listed = await o.members(owner, org);
    expect(listed.data.map((m) => [m.email, m.name, m.role])).toEqual([
      [owner.email, 'Test User', 'owner'],
      [address, null, 'member'],
      [outsider.email, null, 'member'],
    ]);
    // The name shows once the member has opened the organisation themselves.
    expect((await call(t.app, outsider.key, 'GET', `/api/organisations/${org}`)).status).toBe(200);
    expect((await o.members(owner, org)).data[2]).toMatchObject({ email: outsider.email, name: 'Test User' });

    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    expect((await o.share(owner, farm, org, 'researcher')).status).toBe(200);
    const latecomer = await signUpWithKey(t.app, address);
    expect((await call(t.app, latecomer.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    expect((await o.farms(latecomer, `?organisation=${org}`)).data).toEqual([
      expect.objectContaining({ b_id_farm: farm, role: 'researcher' }),
    ]);
    expect((await o.members(owner, org)).pagination.total).toBe(3);
  });

  it('shares a farm with an organisation: every member acts with the role from the very next request, and only them', async () => {
    const org = (await o.create(owner)).id;
    expect((await o.member(owner, org, advisor.email, 'member')).status).toBe(200);
    const farm = (await createFarm(t.app, owner.key, { b_name_farm: 'Shared with the firm' })).b_id_farm;
    await expectProblem(await call(t.app, advisor.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');

    const entry = await body(o.share(owner, farm, org, 'advisor'));
    expect(entry).toEqual({ organisation: org, organisation_name: 'Akkerbouw Advies BV', role: 'advisor' });
    expect((await call(t.app, advisor.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    const field = await createField(t.app, advisor.key, farm);
    expect((await call(t.app, advisor.key, 'GET', `/api/farms/${farm}/changes`)).status).toBe(200);
    await expectProblem(await call(t.app, outsider.key, 'GET', `/api/fields/${field.b_id}`), 404, 'not-found');
    await expectProblem(await call(t.app, advisor.key, 'GET', `/api/farms/${farm}/access`), 403, 'forbidden');

    const access = await body<Page<unknown>>(call(t.app, owner.key, 'GET', `/api/farms/${farm}/access`));
    expect(access.data).toEqual([{ email: owner.email, role: 'owner' }, entry]);

    expect((await o.share(owner, farm, org, 'researcher')).status).toBe(200);
    await expectProblem(await call(t.app, advisor.key, 'PATCH', `/api/fields/${field.b_id}`, { b_name: 'x' }), 403, 'forbidden');
    expect((await call(t.app, advisor.key, 'GET', `/api/fields/${field.b_id}`)).status).toBe(200);

    expect((await o.unshare(owner, farm, org)).status).toBe(204);
    await expectProblem(await call(t.app, advisor.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    await expectProblem(await o.unshare(owner, farm, org), 404, 'not-found');
  });

  it('refuses owner for an organisation (422), an organisation the sharer is not in (404), and sharing by a non-owner (403)', async () => {
    const org = (await o.create(owner)).id;
    const others = (await o.create(outsider)).id;
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await expectProblem(await o.share(owner, farm, org, 'owner'), 422, 'unprocessable-entity');
    await expectProblem(await o.share(owner, farm, others, 'advisor'), 404, 'not-found');
    await expectProblem(await o.share(owner, farm, 'no-such-organisation', 'advisor'), 404, 'not-found');
    expect((await call(t.app, owner.key, 'PUT', `/api/farms/${farm}/access`, { email: advisor.email, role: 'advisor' })).status).toBe(200);
    expect((await o.member(owner, org, advisor.email, 'owner')).status).toBe(200);
    await expectProblem(await o.share(advisor, farm, org, 'advisor'), 403, 'forbidden');
    await expectProblem(await o.unshare(advisor, farm, org), 403, 'forbidden');
    const access = await body<Page<unknown>>(call(t.app, owner.key, 'GET', `/api/farms/${farm}/access`));
    expect(access.pagination.total).toBe(2);
  });

  it('lists each farm once with the effective role, the highest of every way; ?organisation= for members only', async () => {
    const member = await signUpWithKey(t.app);
    const [firm, group] = [(await o.create(owner, 'Firm')).id, (await o.create(owner, 'Group')).id];
    await o.member(owner, firm, member.email, 'member');
    await o.member(owner, group, member.email, 'member');
    const farms = [];
    for (let i = 0; i < 4; i++) farms.push((await createFarm(t.app, owner.key, { b_name_farm: `farm ${i}` })).b_id_farm);
    const [a, b, c, d] = farms as [string, string, string, string];
    await o.share(owner, a, firm, 'researcher');
    await o.share(owner, a, group, 'advisor');
    await o.share(owner, b, firm, 'researcher');
    await o.share(owner, c, group, 'researcher');
    expect((await call(t.app, owner.key, 'PUT', `/api/farms/${c}/access`, { email: member.email, role: 'owner' })).status).toBe(200);
    const own = (await createFarm(t.app, member.key)).b_id_farm;
    await o.share(member, own, firm, 'advisor');

    const all = await o.farms(member);
    expect(all.data.map((f) => [f.b_id_farm, f.role])).toEqual([
      [a, 'advisor'],
      [b, 'researcher'],
      [c, 'owner'],
      [own, 'owner'],
    ]);
    expect(all.pagination.total).toBe(4);
    for (let offset = 0; offset < 4; offset++) {
      const page = await o.farms(member, `?limit=1&offset=${offset}`);
      expect(page.data.map((f) => f.b_id_farm)).toEqual([all.data[offset]!.b_id_farm]);
      expect(page.data[0]!.role).toBe(all.data[offset]!.role);
      expect(page.pagination.total).toBe(4);
    }
    expect((await o.farms(member, `?organisation=${firm}`)).data.map((f) => [f.b_id_farm, f.role])).toEqual([
      [a, 'advisor'],
      [b, 'researcher'],
      [own, 'owner'],
    ]);
    expect((await o.farms(member, `?organisation=${group}&limit=1&offset=1`)).data.map((f) => f.b_id_farm)).toEqual([c]);
    expect((await o.farms(member, `?organisation=${group}`)).pagination.total).toBe(2);
    await expectProblem(await call(t.app, outsider.key, 'GET', `/api/farms?organisation=${firm}`), 404, 'not-found');
    await expectProblem(await call(t.app, member.key, 'GET', '/api/farms?organisation=nothing-here'), 404, 'not-found');
    expect((await o.farms(outsider)).data.map((f) => f.b_id_farm)).not.toContain(d);
  });

  it('takes the farms away from a member removed, and from every member when the organisation is deleted; farms stay', async () => {
    const org = (await o.create(owner)).id;
    const [one, two] = [await signUpWithKey(t.app), await signUpWithKey(t.app)];
    await o.member(owner, org, one.email, 'member');
    await o.member(owner, org, two.email, 'member');
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await o.share(owner, farm, org, 'advisor');
    for (const member of [one, two]) {
      expect((await call(t.app, member.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
      expect((await call(t.app, member.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    }
    expect((await o.remove(owner, org, one.email)).status).toBe(204);
    await expectProblem(await call(t.app, one.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    await expectProblem(await call(t.app, one.key, 'PATCH', `/api/farms/${farm}`, { b_name_farm: 'x' }), 404, 'not-found');
    expect((await o.farms(one)).pagination.total).toBe(0);
    expect((await call(t.app, two.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);

    expect((await call(t.app, owner.key, 'DELETE', `/api/organisations/${org}`)).status).toBe(204);
    await expectProblem(await call(t.app, two.key, 'GET', `/api/farms/${farm}`), 404, 'not-found');
    expect((await call(t.app, owner.key, 'GET', `/api/farms/${farm}`)).status).toBe(200);
    const access = await body<Page<unknown>>(call(t.app, owner.key, 'GET', `/api/farms/${farm}/access`));
    expect(access.data).toEqual([{ email: owner.email, role: 'owner' }]);
    const trail = await body<Page<{ action: string; resource_type: string; resource_id: string }>>(
      call(t.app, owner.key, 'GET', `/api/farms/${farm}/audit`),
    );
    expect(trail.data.map((e) => [e.action, e.resource_type, e.resource_id])).toEqual([
      ['create', 'farm', farm],
      ['grant', 'organisation access', `${org}:advisor`],
      ['revoke', 'organisation access', org],
    ]);
    const left = await t.database.db.execute(sql`select 1 from organisation_members where organisation_id = ${org}`);
    expect(left.rows).toEqual([]);
  });

  it('a farm deleted takes its organisation roles with it', async () => {
    const org = (await o.create(owner)).id;
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await o.share(owner, farm, org, 'researcher');
    expect((await call(t.app, owner.key, 'DELETE', `/api/farms/${farm}`)).status).toBe(204);
    expect((await o.farms(owner, `?organisation=${org}`)).pagination.total).toBe(0);
    const left = await t.database.db.execute(sql`select 1 from organisation_farm_access where b_id_farm = ${farm}`);
    expect(left.rows).toEqual([]);
  });

  it("records membership changes and sharing in the organisation's trail (owners and admins)", async () => {
    const org = (await o.create(owner)).id;
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await o.member(owner, org, advisor.email, 'admin');
    await call(t.app, owner.key, 'PATCH', `/api/organisations/${org}`, { name: 'New name' });
    await o.share(owner, farm, org, 'advisor');
    await o.unshare(owner, farm, org);
    await o.remove(advisor, org, advisor.email);
    const trail = await body<Page<{ action: string; resource_type: string; resource_id: string; user_id: string; key_id: string }>>(
      call(t.app, owner.key, 'GET', `/api/organisations/${org}/audit`),
    );
    expect(trail.data.map((e) => [e.action, e.resource_type, e.resource_id, e.user_id])).toEqual([
      ['create', 'organisation', org, owner.userId],
      ['grant', 'member', `${advisor.email}:admin`, owner.userId],
      ['update', 'organisation', org, owner.userId],
      ['grant', 'farm', `${farm}:advisor`, owner.userId],
      ['revoke', 'farm', farm, owner.userId],
      ['revoke', 'member', advisor.email, advisor.userId],
    ]);
    expect(trail.data[0]!.key_id).toBe(owner.keyId);
  });

  it('keeps to its limits: members of an organisation and organisations of a user, with 409 and nothing written', async () => {
    const org = (await o.create(owner)).id;
    await t.database.db.execute(sql`
      insert into pending_organisation_members (organisation_id, email, role, expires_at)
      select ${org}, 'filler' || n || '@example.org', 'member', now() + interval '1 day'
      from generate_series(1, ${MEMBERS_PER_ORGANISATION - 2}) as n`);
    expect((await o.member(owner, org, `last-${Date.now()}@example.org`, 'member')).status).toBe(200);
    await expectProblem(await o.member(owner, org, advisor.email, 'member'), 409, 'conflict');
    await expectProblem(await o.member(owner, org, `more-${Date.now()}@example.org`, 'member'), 409, 'conflict');
    expect((await o.members(owner, org)).pagination.total).toBe(MEMBERS_PER_ORGANISATION);

    const joiner = await signUpWithKey(t.app);
    await t.database.db.execute(sql`
      with made as (
        insert into organisations (organisation_id, name)
        select 'bulk-' || ${joiner.userId} || '-' || n, 'Bulk ' || n from generate_series(1, ${ORGANISATIONS_PER_USER}) as n
        returning organisation_id)
      insert into organisation_members (organisation_id, user_id, role) select organisation_id, ${joiner.userId}, 'owner' from made`);
    await expectProblem(await call(t.app, joiner.key, 'POST', '/api/organisations', { name: 'One too many' }), 409, 'conflict');
    const another = (await o.create(owner)).id;
    await expectProblem(await o.member(owner, another, joiner.email, 'member'), 409, 'conflict');
    expect((await o.members(owner, another)).pagination.total).toBe(1);
    expect((await body<Page<Organisation>>(call(t.app, joiner.key, 'GET', '/api/organisations?limit=1'))).pagination.total).toBe(
      ORGANISATIONS_PER_USER,
    );
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('organisation changes across processes sharing PostgreSQL', () => {
  it('count in a second process on its very next request: share, membership removed, organisation deleted', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const o = organisationsOn(a.app);
      const owner = await signUpWithKey(a.app);
      const member = await signUpWithKey(a.app);
      const org = (await o.create(owner)).id;
      await o.member(owner, org, member.email, 'member');
      const farm = (await createFarm(a.app, owner.key)).b_id_farm;
      const read = () => call(b.app, member.key, 'GET', `/api/farms/${farm}`);
      await expectProblem(await read(), 404, 'not-found');
      expect((await o.share(owner, farm, org, 'advisor')).status).toBe(200);
      // The second read is served by the role process B remembers from the first.
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(200);
      expect((await o.remove(owner, org, member.email)).status).toBe(204);
      await expectProblem(await read(), 404, 'not-found');
      expect((await o.member(owner, org, member.email, 'member')).status).toBe(200);
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(200);
      expect((await call(a.app, owner.key, 'DELETE', `/api/organisations/${org}`)).status).toBe(204);
      await expectProblem(await read(), 404, 'not-found');
    });
  });
});
