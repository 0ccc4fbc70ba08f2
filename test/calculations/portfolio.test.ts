// Portfolio calculations over HTTP: every row equal, member by member, to the farm endpoint's answer for the
// same farm and body, for all three calculations, over pages of several sizes, with a farm that fails and an
// empty farm among them; paging by work; bad input; one page one calculation request.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { farmOfFields } from '../helpers/bulk-fields.js';
import { storageKinds } from '../helpers/databases.js';
import { acquireFertilizer, createApplication, createField, farmWithEverything, makeCalculable, rectangle } from '../helpers/fixtures.js';
import { createOrganisation, shareWithOrganisation } from '../helpers/organisations.js';

type Json = Record<string, unknown>;
interface Row {
  b_id_farm: string;
  b_name_farm: string;
  role: string;
  result?: Json;
  error?: { code: string; detail: string };
}
interface Page {
  data: Row[];
  pagination: { limit: number; offset: number; total: number; next_offset: number | null };
}

const CALCULATIONS = [
  { path: 'nitrogen-balance', body: { start: '2025-01-01', end: '2025-12-31' } },
  { path: 'organic-matter-balance', body: { start: '2025-01-01', end: '2025-12-31' } },
  { path: 'norms', body: { year: 2025 } },
] as const;

describe.each(storageKinds)('portfolio calculations on %s', (kind) => {
  let t: TestApp;
  let owner: Account;
  let member: Account;
  let orgId: string;
  let failingFarm: string;
  let emptyFarm: string;
  let listed: Array<{ b_id_farm: string; b_name_farm: string; role: string }>;

  const portfolio = (account: Account, path: string, body: unknown, query = '') =>
    call(t.app, account.key, 'POST', `/api/organisations/${orgId}/calculations/${path}${query}`, body);

  /** Every page from `limit`, following next_offset, and the pages themselves. */
  async function allPages(path: string, body: unknown, limit: number): Promise<Page[]> {
    const pages: Page[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const response = await portfolio(member, path, body, `?limit=${limit}&offset=${offset}`);
      expect(response.status, await response.clone().text()).toBe(200);
      const page = (await response.json()) as Page;
      pages.push(page);
      offset = page.pagination.next_offset;
    }
    return pages;
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await signUpWithKey(t.app);
    member = await signUpWithKey(t.app);
    // The farms' owner makes the organisation (one shares with an organisation one belongs to), hands it to the
    // member and leaves it once the farms are shared: from then on the owner is no member of it.
    orgId = await createOrganisation(t, owner, 'Adviesbureau');
    expect(
      (await call(t.app, owner.key, 'PUT', `/api/organisations/${orgId}/members`, { email: member.email, role: 'owner' })).status,
    ).toBe(200);
    const farms: string[] = [];

    // A farm with a record of every kind: derogation, grazing intention, certification, harvest, application.
    farms.push((await farmWithEverything((path, init) => Promise.resolve(t.app.request(path, init)), owner.key)).b_id_farm);
    // Two calculable fields on different soil, one field without records (a field error in the farm answer).
    const mixed = (await createFarm(t.app, owner.key, { b_name_farm: 'Gemengd' })).b_id_farm;
    const slurry = (await acquireFertilizer(t.app, owner.key, mixed, 'BAAT050')).p_id;
    for (const [index, region] of (['klei', 'zand_zuid'] as const).entries()) {
      const field = (await createField(t.app, owner.key, mixed, { b_soil_region: region, b_geometry: rectangle(5 + index * 0.01) })).b_id;
      await makeCalculable(t.app, owner.key, field);
      await createApplication(t.app, owner.key, field, { p_id: slurry, p_app_amount_display: 25 });
    }
    await createField(t.app, owner.key, mixed, { b_name: 'Leeg perceel' });
    farms.push(mixed);
    // No fields at all: the farm endpoint answers it with its "No fields in input" figures.
    emptyFarm = (await createFarm(t.app, owner.key, { b_name_farm: 'Zonder percelen' })).b_id_farm;
    farms.push(emptyFarm);
    // A farm whose stored fertilizer is no longer in the catalogue (as after a catalogue update): its farm
    // endpoint answers 500, and its row says so while the other farms are calculated.
    failingFarm = (await createFarm(t.app, owner.key, { b_name_farm: 'Kapot' })).b_id_farm;
    const gone = (await acquireFertilizer(t.app, owner.key, failingFarm, 'BAAT028')).p_id;
    const broken = (await createField(t.app, owner.key, failingFarm, { b_soil_region: 'veen' })).b_id;
    await makeCalculable(t.app, owner.key, broken);
    await createApplication(t.app, owner.key, broken, { p_id: gone, p_app_amount_display: 100 });
    await t.database.db.execute(sql`update farm_fertilizers set p_id_catalogue = 'GONE-FROM-CATALOGUE' where p_id = ${gone}`);
    farms.push(failingFarm);
    // Two more plain farms, so that pages of 2 and 3 farms end in the middle and at the end.
    for (const name of ['Noord', 'Zuid']) {
      const farm = (await createFarm(t.app, owner.key, { b_name_farm: name })).b_id_farm;
      const field = (await createField(t.app, owner.key, farm, { b_soil_region: 'loess' })).b_id;
      await makeCalculable(t.app, owner.key, field);
      farms.push(farm);
    }
    for (const [index, farm] of farms.entries()) {
      await shareWithOrganisation(t, owner, farm, orgId, index % 2 === 0 ? 'advisor' : 'researcher');
    }
    expect((await call(t.app, owner.key, 'DELETE', `/api/organisations/${orgId}/members/${owner.email}`)).status).toBe(204);
    // The member's own farm, not shared with the organisation, is never in its pages.
    await createFarm(t.app, member.key, { b_name_farm: 'Eigen bedrijf' });

    const list = await call(t.app, member.key, 'GET', `/api/farms?organisation=${orgId}&limit=200`);
    expect(list.status).toBe(200);
    listed = ((await list.json()) as { data: typeof listed }).data.map(({ b_id_farm, b_name_farm, role }) => ({
      b_id_farm,
      b_name_farm,
      role,
    }));
    expect(listed.map((f) => f.b_id_farm).sort()).toEqual([...farms].sort());
  });
  afterAll(() => t?.close());

  for (const { path, body } of CALCULATIONS) {
    it(`gives every farm's ${path} exactly as its farm endpoint, in the organisation's order, over pages of 1, 2, 3 and 50 farms`, async () => {
      const expected: Row[] = [];
      for (const farm of listed) {
        const response = await call(t.app, member.key, 'POST', `/api/farms/${farm.b_id_farm}/calculations/${path}`, body);
        if (farm.b_id_farm === failingFarm) {
          await expectProblem(response, 500, 'internal-error');
          expected.push({
            ...farm,
            error: { code: 'internal-error', detail: expect.stringMatching(/^This farm's .* [A-Z0-9]{4}-[A-Z0-9]{4} /) as never },
          });
          continue;
        }
        expect(response.status).toBe(200);
        const { fields, ...result } = (await response.json()) as Json;
        expect(Array.isArray(fields)).toBe(true);
        expected.push({ ...farm, result });
      }
      // The empty farm is answered, not failed: with the balances' "No fields in input", with all-zero norms.
      const empty = expected.find((row) => row.b_id_farm === emptyFarm)!.result;
      expect(empty).toMatchObject(path === 'norms' ? { fieldsInTotals: [], fieldsLeftOut: [] } : { errorMessage: 'No fields in input' });
      for (const limit of [1, 2, 3, 50]) {
        const pages = await allPages(path, body, limit);
        expect(pages).toHaveLength(Math.ceil(listed.length / limit));
        for (const [index, page] of pages.entries()) {
          const last = index === pages.length - 1;
          expect(page.pagination).toEqual({
            limit,
            offset: index * limit,
            total: listed.length,
            next_offset: last ? null : (index + 1) * limit,
          });
        }
        // Member by member: toEqual with the farm answer less `fields` leaves no member out and adds none.
        expect(pages.flatMap((page) => page.data)).toEqual(expected);
      }
    });
  }

  it('takes the body as the farm endpoints do: the current year by default, the same 400 and 422', async () => {
    const year = new Date().getUTCFullYear();
    const defaulted = (await (await portfolio(member, 'nitrogen-balance', undefined)).json()) as Page;
    expect(defaulted.data[0]!.result!.timeframe).toEqual({ start: `${year}-01-01`, end: `${year}-12-31` });
    for (const path of ['nitrogen-balance', 'organic-matter-balance']) {
      await expectProblem(await portfolio(member, path, { start: '2025-02-30' }), 400, 'validation-failed');
      await expectProblem(await portfolio(member, path, { start: '2025-02-01', end: '2025-01-01' }), 422, 'unprocessable-entity');
      await expectProblem(await portfolio(member, path, { start: '2000-01-01', end: '2025-01-01' }), 422, 'unprocessable-entity');
      await expectProblem(await portfolio(member, path, { start: '2025-01-01', farms: ['x'] }), 400, 'validation-failed');
    }
    await expectProblem(await portfolio(member, 'norms', { year: 2024 }), 422, 'unprocessable-entity');
    await expectProblem(await portfolio(member, 'norms', { year: '2025' }), 400, 'validation-failed');
  });

  it('refuses limit outside 1–200 and a bad offset with 400', async () => {
    for (const query of ['?limit=0', '?limit=201', '?limit=ten', '?offset=-1', '?offset=1.5']) {
      await expectProblem(await portfolio(member, 'norms', { year: 2025 }, query), 400, 'validation-failed');
    }
  });

  it('answers an unknown organisation and one the caller is not a member of with 404, calculating nothing', async () => {
    const stranger = await signUpWithKey(t.app);
    for (const { path, body } of CALCULATIONS) {
      await expectProblem(await portfolio(stranger, path, body), 404, 'not-found');
      // The farms' owner reaches every farm, but is no member of the organisation.
      await expectProblem(await portfolio(owner, path, body), 404, 'not-found');
      await expectProblem(
        await call(t.app, member.key, 'POST', `/api/organisations/no-such-organisation/calculations/${path}`, body),
        404,
        'not-found',
      );
    }
  });

  it('gives a key limited to some farms only those of them, a read-only key included, by the one access rule', async () => {
    const reached = [listed[1]!.b_id_farm, listed[4]!.b_id_farm];
    const made = await t.app.request('/api/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: member.cookie },
      body: JSON.stringify({ name: 'two farms, read only', access: 'read', farms: reached }),
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const limited = { ...member, key: ((await made.json()) as { key: string }).key };
    for (const { path, body } of CALCULATIONS) {
      const response = await portfolio(limited, path, body);
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      expect(page.pagination).toEqual({ limit: 50, offset: 0, total: 2, next_offset: null });
      expect(page.data.map((row) => row.b_id_farm)).toEqual(
        listed.filter((farm) => reached.includes(farm.b_id_farm)).map((farm) => farm.b_id_farm),
      );
    }
  });

  it('answers an offset past the last farm with an empty page', async () => {
    const page = (await (await portfolio(member, 'norms', { year: 2025 }, '?offset=1000')).json()) as Page;
    expect(page).toEqual({ data: [], pagination: { limit: 50, offset: 1000, total: listed.length, next_offset: null } });
  });
});

describe.each(storageKinds)('a portfolio page cut by work on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let orgId: string;
  const farms: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    orgId = await createOrganisation(t, user, 'Coöperatie');
    // 3,000 + 3,000 fields pass 5,000: the second farm starts the next page. A farm of 6,000 alone is a page.
    for (const [name, count] of [
      ['Groot', 3_000],
      ['Ook groot', 3_000],
      ['Klein', 1],
      ['Reus', 6_000],
      ['Na de reus', 1],
    ] as const) {
      const farm = await farmOfFields(t, user.key, name, count);
      await shareWithOrganisation(t, user, farm, orgId, 'advisor');
      farms.push(farm);
    }
  });
  afterAll(() => t?.close());

  it('ends a page before the farm that would take it past 5,000 fields, never before its first farm', async () => {
    const pages: Array<{ farms: string[]; next: number | null; fieldCounts: number[] }> = [];
    for (let offset: number | null = 0; offset !== null;) {
      const response = await call(t.app, user.key, 'POST', `/api/organisations/${orgId}/calculations/norms?offset=${offset}`, {
        year: 2025,
      });
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      expect(page.pagination.total).toBe(5);
      const counts = page.data.map(
        (row) => (row.result!.fieldsInTotals as string[]).length + (row.result!.fieldsLeftOut as unknown[]).length,
      );
      pages.push({ farms: page.data.map((row) => row.b_id_farm), next: page.pagination.next_offset, fieldCounts: counts });
      offset = page.pagination.next_offset;
    }
    expect(pages).toEqual([
      { farms: [farms[0]], next: 1, fieldCounts: [3_000] },
      { farms: [farms[1], farms[2]], next: 3, fieldCounts: [3_000, 1] },
      { farms: [farms[3]], next: 4, fieldCounts: [6_000] },
      { farms: [farms[4]], next: null, fieldCounts: [1] },
    ]);
  });
});

describe.each(storageKinds)('portfolio calculations and the calculation limit on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_CALCULATION: '2' });
  });
  afterAll(() => t?.close());

  it('counts one page, whatever its farms, as one calculation request', async () => {
    const user = await signUpWithKey(t.app);
    const orgId = await createOrganisation(t, user, 'Onderzoeksgroep');
    for (let i = 0; i < 3; i++) {
      const farm = (await createFarm(t.app, user.key, { b_name_farm: `Proefbedrijf ${i}` })).b_id_farm;
      await shareWithOrganisation(t, user, farm, orgId, 'researcher');
    }
    const page = (await (
      await call(t.app, user.key, 'POST', `/api/organisations/${orgId}/calculations/norms`, { year: 2025 })
    ).json()) as Page;
    expect(page.data).toHaveLength(3);
    expect((await call(t.app, user.key, 'POST', `/api/organisations/${orgId}/calculations/nitrogen-balance`, {})).status).toBe(200);
    await expectProblem(
      await call(t.app, user.key, 'POST', `/api/organisations/${orgId}/calculations/norms`, { year: 2025 }),
      429,
      'rate-limit-exceeded',
    );
  });
});
