// The stored inputs of the Dutch usage norms: where a field lies, a crop's variety, and per farm the derogation
// years, the grazing intentions and the organic certifications (docs/api.md, Resources).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { created, createCultivation, createField, organicCertificationBody, rectangle } from '../helpers/fixtures.js';

interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}
interface AuditEntry {
  action: string;
  resource_type: string;
  resource_id: string;
}

const fieldsOf = (body: Record<string, unknown>) => (body.errors as Array<{ field: string }>).map((e) => e.field);

const LOCATION_DEFAULTS = {
  b_soil_region: null,
  b_in_nv_area: false,
  b_in_gwbg: false,
  b_in_natura2000: false,
  b_in_derogation_free_zone: false,
};

describe.each(storageKinds)('inputs of the usage norms on %s', (kind) => {
  let t: TestApp;
  let owner: Account;
  let researcher: Account;
  let advisor: Account;
  let stranger: Account;

  beforeAll(async () => {
    t = await startTestApp(kind);
    [owner, researcher, advisor, stranger] = await Promise.all([
      signUpWithKey(t.app),
      signUpWithKey(t.app),
      signUpWithKey(t.app),
      signUpWithKey(t.app),
    ]);
  });
  afterAll(() => t.close());

  const as = (account: Account, method: string, path: string, body?: unknown) => call(t.app, account.key, method, path, body);
  const get = async <T>(path: string, account = owner): Promise<T> => {
    const response = await as(account, 'GET', path);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  /** A farm of the owner, shared with the researcher and the advisor. */
  const sharedFarm = async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    for (const [account, role] of [
      [researcher, 'researcher'],
      [advisor, 'advisor'],
    ] as const) {
      expect((await as(owner, 'PUT', `/api/farms/${farm}/access`, { email: account.email, role })).status).toBe(200);
    }
    return farm;
  };
  /** The audit entries of the farm about `resourceType`, oldest first. */
  const auditOf = async (farm: string, resourceType: string) =>
    (await get<Page<AuditEntry>>(`/api/farms/${farm}/audit?limit=200`)).data
      .filter((entry) => entry.resource_type === resourceType)
      .map(({ action, resource_id }) => [action, resource_id]);

  describe('the location of a field', () => {
    let farm: string;
    let plain: string;
    beforeAll(async () => {
      farm = (await createFarm(t.app, owner.key)).b_id_farm;
      plain = (await createField(t.app, owner.key, farm)).b_id;
    });

    it('defaults to no soil region and outside every area, in the answer, the field and the list', async () => {
      const field = await createField(t.app, owner.key, farm);
      expect(field).toMatchObject(LOCATION_DEFAULTS);
      expect(await get(`/api/fields/${field.b_id}`)).toMatchObject(LOCATION_DEFAULTS);
      const listed = await get<Page<Record<string, unknown>>>(`/api/farms/${farm}/fields`);
      expect(listed.data.find((f) => f.b_id === field.b_id)).toMatchObject(LOCATION_DEFAULTS);
    });

    it('stores what the creation states, and a PATCH changes each member alone', async () => {
      const stated = {
        b_soil_region: 'veen',
        b_in_nv_area: true,
        b_in_gwbg: false,
        b_in_natura2000: true,
        b_in_derogation_free_zone: true,
      };
      const field = await createField(t.app, owner.key, farm, stated);
      expect(field).toMatchObject(stated);
      const patch = async (changes: Record<string, unknown>) => {
        const response = await as(owner, 'PATCH', `/api/fields/${field.b_id}`, changes);
        expect(response.status).toBe(200);
        return (await response.json()) as Record<string, unknown>;
      };
      expect(await patch({ b_soil_region: 'zand_zuid' })).toMatchObject({ ...stated, b_soil_region: 'zand_zuid' });
      expect(await patch({ b_in_gwbg: true, b_in_natura2000: false })).toMatchObject({
        ...stated,
        b_soil_region: 'zand_zuid',
        b_in_gwbg: true,
        b_in_natura2000: false,
      });
      const cleared = await patch({ b_soil_region: null, b_in_nv_area: false, b_in_derogation_free_zone: false });
      expect(cleared).toMatchObject({ ...LOCATION_DEFAULTS, b_in_gwbg: true });
      expect(cleared.updated_at).not.toBe(cleared.created_at);
      expect(await get(`/api/fields/${field.b_id}`)).toEqual(cleared);
      expect(await auditOf(farm, 'field')).toContainEqual(['update', field.b_id]);
    });

    it.each([
      [{ b_soil_region: 'zand' }, 'b_soil_region'],
      [{ b_soil_region: 'KLEI' }, 'b_soil_region'],
      [{ b_in_nv_area: 'true' }, 'b_in_nv_area'],
      [{ b_in_gwbg: null }, 'b_in_gwbg'],
      [{ b_in_natura2000: 1 }, 'b_in_natura2000'],
      [{ b_in_derogation_free_zone: 'no' }, 'b_in_derogation_free_zone'],
    ])('refuses %j on creation and in a PATCH with 400 naming %s', async (body, member) => {
      const creation = await as(owner, 'POST', `/api/farms/${farm}/fields`, {
        b_name: 'P',
        b_start: '2020-01-01',
        b_geometry: rectangle(),
        ...body,
      });
      expect(fieldsOf(await expectProblem(creation, 400, 'validation-failed'))).toEqual([member]);
      const patch = await as(owner, 'PATCH', `/api/fields/${plain}`, body);
      expect(fieldsOf(await expectProblem(patch, 400, 'validation-failed'))).toEqual([member]);
      expect(await get(`/api/fields/${plain}`)).toMatchObject(LOCATION_DEFAULTS);
    });
  });

  describe('the variety of a cultivation', () => {
    let field: string;
    beforeAll(async () => {
      field = (await createField(t.app, owner.key, (await createFarm(t.app, owner.key)).b_id_farm)).b_id;
    });

    it('is null unless stated, stored exactly as sent, and a PATCH sets or clears it', async () => {
      expect(await createCultivation(t.app, owner.key, field)).toMatchObject({ b_lu_variety: null });
      const potato = await createCultivation(t.app, owner.key, field, { b_lu_catalogue: 'nl_2014', b_lu_variety: ' Fontane ' });
      expect(potato.b_lu_variety).toBe(' Fontane ');
      expect(await get(`/api/cultivations/${potato.b_lu}`)).toMatchObject({ b_lu_variety: ' Fontane ' });
      const page = await get<Page<{ b_lu: string; b_lu_variety: string | null }>>(`/api/fields/${field}/cultivations`);
      expect(page.data.find((c) => c.b_lu === potato.b_lu)!.b_lu_variety).toBe(' Fontane ');
      const patch = (b_lu_variety: unknown) => as(owner, 'PATCH', `/api/cultivations/${potato.b_lu}`, { b_lu_variety });
      expect(await (await patch('Agria')).json()).toMatchObject({ b_lu_variety: 'Agria' });
      expect(await (await patch(null)).json()).toMatchObject({ b_lu_variety: null });
    });

    it.each([[''], ['x'.repeat(101)], [42]])('refuses the variety %j with 400 naming it', async (variety) => {
      const response = await as(owner, 'POST', `/api/fields/${field}/cultivations`, {
        b_lu_catalogue: 'nl_2014',
        b_lu_start: '2025-04-01',
        b_lu_variety: variety,
      });
      expect(fieldsOf(await expectProblem(response, 400, 'validation-failed'))).toEqual(['b_lu_variety']);
    });

    it('takes 100 characters, and the crop catalogue carries no variety', async () => {
      const long = 'v'.repeat(100);
      expect((await createCultivation(t.app, owner.key, field, { b_lu_variety: long })).b_lu_variety).toBe(long);
      const crops = await get<Page<Record<string, unknown>>>('/api/catalogues/cultivations?q=nl_2014');
      expect(crops.data[0]).not.toHaveProperty('b_lu_variety');
    });
  });

  describe('derogations', () => {
    it('holds a year with 201, again with 200 and nothing changed, lists the years in order, and audits the change once', async () => {
      const farm = await sharedFarm();
      const first = await as(advisor, 'PUT', `/api/farms/${farm}/derogations/2025`);
      expect(first.status).toBe(201);
      expect(first.headers.get('etag')).toMatch(/^"/);
      const held = (await first.json()) as Record<string, unknown>;
      expect(held).toEqual({ b_id_farm: farm, b_derogation_year: 2025, created_at: expect.any(String), updated_at: held.created_at });
      const again = await as(owner, 'PUT', `/api/farms/${farm}/derogations/2025`);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(held);
      expect((await as(owner, 'PUT', `/api/farms/${farm}/derogations/2006`)).status).toBe(201);
      const listed = await get<Page<{ b_derogation_year: number }>>(`/api/farms/${farm}/derogations`, researcher);
      expect(listed.data.map((d) => d.b_derogation_year)).toEqual([2006, 2025]);
      expect(listed.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
      expect(await auditOf(farm, 'derogation')).toEqual([
        ['create', '2025'],
        ['create', '2006'],
      ]);
    });

    it('removes a year with 204, then 404; a year never held is 404', async () => {
      const farm = await sharedFarm();
      await as(owner, 'PUT', `/api/farms/${farm}/derogations/2020`);
      const removed = await as(advisor, 'DELETE', `/api/farms/${farm}/derogations/2020`);
      expect(removed.status).toBe(204);
      expect(await removed.text()).toBe('');
      await expectProblem(await as(owner, 'DELETE', `/api/farms/${farm}/derogations/2020`), 404, 'not-found');
      await expectProblem(await as(owner, 'DELETE', `/api/farms/${farm}/derogations/2019`), 404, 'not-found');
      expect((await get<Page<unknown>>(`/api/farms/${farm}/derogations`)).data).toEqual([]);
      expect(await auditOf(farm, 'derogation')).toEqual([
        ['create', '2020'],
        ['delete', '2020'],
      ]);
    });

    it('refuses a year outside 2006–2025 with 400 naming it', async () => {
      const farm = (await createFarm(t.app, owner.key)).b_id_farm;
      for (const year of ['2005', '2026', '0000']) {
        for (const method of ['PUT', 'DELETE']) {
          const body = await expectProblem(await as(owner, method, `/api/farms/${farm}/derogations/${year}`), 400, 'validation-failed');
          expect(body.errors).toEqual([{ field: 'year', message: expect.stringMatching(/^must be (2006 or later|2025 or earlier)$/) }]);
        }
      }
      expect((await get<Page<unknown>>(`/api/farms/${farm}/derogations`)).pagination.total).toBe(0);
    });

    it('lets a researcher read but not write (403), and is 404 without a role; a refused write changes nothing', async () => {
      const farm = await sharedFarm();
      await as(owner, 'PUT', `/api/farms/${farm}/derogations/2024`);
      await expectProblem(await as(researcher, 'PUT', `/api/farms/${farm}/derogations/2023`), 403, 'forbidden');
      await expectProblem(await as(researcher, 'DELETE', `/api/farms/${farm}/derogations/2024`), 403, 'forbidden');
      for (const [method, year] of [
        ['GET', ''],
        ['PUT', '/2023'],
        ['DELETE', '/2024'],
      ]) {
        await expectProblem(await as(stranger, method!, `/api/farms/${farm}/derogations${year}`), 404, 'not-found');
      }
      expect(
        (await get<Page<{ b_derogation_year: number }>>(`/api/farms/${farm}/derogations`)).data.map((d) => d.b_derogation_year),
      ).toEqual([2024]);
    });

    it('removes only with a matching If-Match', async () => {
      const farm = (await createFarm(t.app, owner.key)).b_id_farm;
      const held = await as(owner, 'PUT', `/api/farms/${farm}/derogations/2022`);
      const tag = held.headers.get('etag')!;
      const refused = await t.app.request(`/api/farms/${farm}/derogations/2022`, {
        method: 'DELETE',
        headers: { 'x-api-key': owner.key, 'if-match': '"stale"' },
      });
      await expectProblem(refused, 412, 'precondition-failed');
      const removed = await t.app.request(`/api/farms/${farm}/derogations/2022`, {
        method: 'DELETE',
        headers: { 'x-api-key': owner.key, 'if-match': tag },
      });
      expect(removed.status).toBe(204);
    });
  });

  describe('grazing intentions', () => {
    let emptyFarm: string;
    beforeAll(async () => {
      emptyFarm = (await createFarm(t.app, owner.key)).b_id_farm;
    });

    it('creates with 201, changes with 200, leaves an unchanged intention as it was, and audits each change', async () => {
      const farm = await sharedFarm();
      const put = (b_grazing_intention: unknown, account = advisor) =>
        as(account, 'PUT', `/api/farms/${farm}/grazing-intentions/2025`, { b_grazing_intention });
      const first = await put(true);
      expect(first.status).toBe(201);
      const stored = (await first.json()) as Record<string, unknown>;
      expect(stored).toEqual({
        b_id_farm: farm,
        b_grazing_intention_year: 2025,
        b_grazing_intention: true,
        created_at: expect.any(String),
        updated_at: stored.created_at,
      });
      const same = await put(true, owner);
      expect(same.status).toBe(200);
      expect(await same.json()).toEqual(stored);
      const changed = await put(false);
      expect(changed.status).toBe(200);
      const after = (await changed.json()) as Record<string, unknown>;
      expect(after).toMatchObject({ b_grazing_intention: false, created_at: stored.created_at });
      expect(after.updated_at! > stored.updated_at!).toBe(true);
      expect((await as(owner, 'PUT', `/api/farms/${farm}/grazing-intentions/2026`, { b_grazing_intention: true })).status).toBe(201);
      const listed = await get<Page<Record<string, unknown>>>(`/api/farms/${farm}/grazing-intentions`, researcher);
      expect(listed.data.map((g) => [g.b_grazing_intention_year, g.b_grazing_intention])).toEqual([
        [2025, false],
        [2026, true],
      ]);
      expect(await auditOf(farm, 'grazing intention')).toEqual([
        ['create', '2025'],
        ['update', '2025'],
        ['create', '2026'],
      ]);
    });

    it.each([
      [{}, 'b_grazing_intention'],
      [{ b_grazing_intention: 'true' }, 'b_grazing_intention'],
      [{ b_grazing_intention: null }, 'b_grazing_intention'],
      [{ b_grazing_intention: true, b_grazing_intention_year: 2025 }, 'b_grazing_intention_year'],
    ])('refuses the body %j with 400 naming %s', async (body, member) => {
      const response = await as(owner, 'PUT', `/api/farms/${emptyFarm}/grazing-intentions/2025`, body);
      expect(fieldsOf(await expectProblem(response, 400, 'validation-failed'))).toEqual([member]);
    });

    it('refuses a year outside 2000–2100 with 400, a researcher with 403, a stranger with 404', async () => {
      const farm = await sharedFarm();
      const body = { b_grazing_intention: true };
      for (const year of ['1999', '2101']) {
        const problem = await expectProblem(
          await as(owner, 'PUT', `/api/farms/${farm}/grazing-intentions/${year}`, body),
          400,
          'validation-failed',
        );
        expect(fieldsOf(problem)).toEqual(['year']);
      }
      await expectProblem(await as(researcher, 'PUT', `/api/farms/${farm}/grazing-intentions/2025`, body), 403, 'forbidden');
      await expectProblem(await as(stranger, 'PUT', `/api/farms/${farm}/grazing-intentions/2025`, body), 404, 'not-found');
      await expectProblem(await as(stranger, 'GET', `/api/farms/${farm}/grazing-intentions`), 404, 'not-found');
      expect((await get<Page<unknown>>(`/api/farms/${farm}/grazing-intentions`)).pagination.total).toBe(0);
    });
  });

  describe('organic certifications', () => {
    let emptyFarm: string;
    beforeAll(async () => {
      emptyFarm = (await createFarm(t.app, owner.key)).b_id_farm;
    });

    it('adds one with 201 and a Location, gets and lists it, deletes it with 204 and then 404, and audits both', async () => {
      const farm = await sharedFarm();
      const response = await as(advisor, 'POST', `/api/farms/${farm}/organic-certifications`, organicCertificationBody);
      expect(response.status).toBe(201);
      const certification = (await response.json()) as Record<string, unknown> & { b_id_organic: string };
      expect(certification).toEqual({
        b_id_organic: expect.any(String),
        b_id_farm: farm,
        ...organicCertificationBody,
        created_at: expect.any(String),
        updated_at: certification.created_at,
      });
      const path = `/api/organic-certifications/${certification.b_id_organic}`;
      expect(response.headers.get('location')).toBe(path);
      expect(await get(path, researcher)).toEqual(certification);
      expect(await get(`/api/farms/${farm}/organic-certifications`, researcher)).toEqual({
        data: [certification],
        pagination: { limit: 50, offset: 0, total: 1 },
      });
      expect((await as(advisor, 'DELETE', path)).status).toBe(204);
      await expectProblem(await as(owner, 'GET', path), 404, 'not-found');
      await expectProblem(await as(owner, 'DELETE', path), 404, 'not-found');
      expect(await auditOf(farm, 'organic certification')).toEqual([
        ['create', certification.b_id_organic],
        ['delete', certification.b_id_organic],
      ]);
    });

    it('takes both numbers as optional, and a certification valid for one day', async () => {
      const farm = (await createFarm(t.app, owner.key)).b_id_farm;
      const oneDay = await created(
        call(t.app, owner.key, 'POST', `/api/farms/${farm}/organic-certifications`, {
          b_organic_issued: '2025-05-15',
          b_organic_expires: '2025-05-15',
        }),
      );
      expect(oneDay).toMatchObject({ b_organic_traces: null, b_organic_skal: null, b_organic_issued: '2025-05-15' });
      const withNulls = await created(
        call(t.app, owner.key, 'POST', `/api/farms/${farm}/organic-certifications`, {
          ...organicCertificationBody,
          b_organic_traces: null,
          b_organic_skal: null,
        }),
      );
      expect(withNulls).toMatchObject({ b_organic_traces: null, b_organic_skal: null });
    });

    it.each([
      [{ b_organic_traces: 'NL-BIO-01.528-0002967.2025.01' }, 'b_organic_traces'],
      [{ b_organic_traces: 'nl-bio-01.528-0002967.2025.001' }, 'b_organic_traces'],
      [{ b_organic_traces: 'NL-BIO-01.528-0002967.2025.001\n' }, 'b_organic_traces'],
      [{ b_organic_skal: '12345' }, 'b_organic_skal'],
      [{ b_organic_skal: 26281 }, 'b_organic_skal'],
      [{ b_organic_skal: '02628a' }, 'b_organic_skal'],
      [{ b_organic_issued: '2025-02-30' }, 'b_organic_issued'],
      [{ b_organic_expires: undefined }, 'b_organic_expires'],
      [{ b_id_farm: 'elsewhere' }, 'b_id_farm'],
    ])('refuses %j with 400 naming %s', async (change, member) => {
      const response = await as(owner, 'POST', `/api/farms/${emptyFarm}/organic-certifications`, {
        ...organicCertificationBody,
        ...change,
      });
      expect(fieldsOf(await expectProblem(response, 400, 'validation-failed'))).toEqual([member]);
      expect((await get<Page<unknown>>(`/api/farms/${emptyFarm}/organic-certifications`)).pagination.total).toBe(0);
    });

    it('refuses an expiry before the issue date with 422', async () => {
      const response = await as(owner, 'POST', `/api/farms/${emptyFarm}/organic-certifications`, {
        ...organicCertificationBody,
        b_organic_issued: '2025-06-01',
        b_organic_expires: '2025-05-31',
      });
      const body = await expectProblem(response, 422, 'unprocessable-entity');
      expect(body.errors).toEqual([{ field: 'b_organic_expires', message: 'must not be before b_organic_issued' }]);
    });

    it('lets a researcher read but not add or delete (403), and is 404 without a role', async () => {
      const farm = await sharedFarm();
      const certification = await created<{ b_id_organic: string }>(
        call(t.app, owner.key, 'POST', `/api/farms/${farm}/organic-certifications`, organicCertificationBody),
      );
      const path = `/api/organic-certifications/${certification.b_id_organic}`;
      await expectProblem(
        await as(researcher, 'POST', `/api/farms/${farm}/organic-certifications`, organicCertificationBody),
        403,
        'forbidden',
      );
      await expectProblem(await as(researcher, 'DELETE', path), 403, 'forbidden');
      await expectProblem(await as(stranger, 'GET', path), 404, 'not-found');
      await expectProblem(await as(stranger, 'DELETE', path), 404, 'not-found');
      await expectProblem(await as(stranger, 'GET', `/api/farms/${farm}/organic-certifications`), 404, 'not-found');
      expect(await get(`/api/farms/${farm}/organic-certifications`)).toMatchObject({ pagination: { total: 1 } });
    });
  });

  it("goes with its farm: a deleted farm's derogations, grazing intentions and certifications are gone", async () => {
    const farm = (await createFarm(t.app, owner.key)).b_id_farm;
    await as(owner, 'PUT', `/api/farms/${farm}/derogations/2025`);
    await as(owner, 'PUT', `/api/farms/${farm}/grazing-intentions/2025`, { b_grazing_intention: true });
    const certification = await created<{ b_id_organic: string }>(
      call(t.app, owner.key, 'POST', `/api/farms/${farm}/organic-certifications`, organicCertificationBody),
    );
    expect((await as(owner, 'DELETE', `/api/farms/${farm}`)).status).toBe(204);
    await expectProblem(await as(owner, 'GET', `/api/organic-certifications/${certification.b_id_organic}`), 404, 'not-found');
    // Counted in the tables themselves: the farm is gone, so no route answers for it.
    const [remaining] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select (select count(*) from derogations where b_id_farm = ${farm})
               + (select count(*) from grazing_intentions where b_id_farm = ${farm})
               + (select count(*) from organic_certifications where b_id_farm = ${farm}) as n`,
    );
    expect(Number(remaining!.n)).toBe(0);
  });
});
