// The change feed of a farm: a client that applies it ends with what a fresh read gives; roles, paging, retention.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import { pruneChanges } from '../../src/resources/changes/pruning.js';
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
import { storageKinds } from '../helpers/databases.js';
import { created, organicCertificationBody, rectangle } from '../helpers/fixtures.js';
import { Random } from '../fuzz/random.js';

interface Change {
  action: 'create' | 'update' | 'delete';
  type: string;
  id: string;
  updated_at: string;
  removed: Record<string, string[]> | null;
}
interface ChangePage {
  data: Change[];
  next: string;
  has_more: boolean;
}

/** A client's copy of a farm: records by type, then by id, as GET answers them. */
type Mirror = Map<string, Map<string, unknown>>;

const singlePath: Record<string, (id: string) => string> = {
  farm: (id) => `/api/farms/${id}`,
  field: (id) => `/api/fields/${id}`,
  cultivation: (id) => `/api/cultivations/${id}`,
  harvest: (id) => `/api/harvests/${id}`,
  soil_analysis: (id) => `/api/soil-analyses/${id}`,
  fertilizer: (id) => `/api/fertilizers/${id}`,
  fertilizer_application: (id) => `/api/fertilizer-applications/${id}`,
  organic_certification: (id) => `/api/organic-certifications/${id}`,
};

/** The records without a path of their own, found by the entry's id in a list of the farm: the list and the id of an item. */
const listedBy: Record<string, { path: (farmId: string) => string; id: (item: Record<string, unknown>) => string }> = {
  member: { path: (farmId) => `/api/farms/${farmId}/access`, id: (item) => String(item.email) },
  derogation: { path: (farmId) => `/api/farms/${farmId}/derogations`, id: (item) => String(item.b_derogation_year) },
  grazing_intention: { path: (farmId) => `/api/farms/${farmId}/grazing-intentions`, id: (item) => String(item.b_grazing_intention_year) },
};

async function body<T>(response: Response): Promise<T> {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function listAll<T>(t: TestApp, key: string, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await body<{ data: T[]; pagination: { total: number } }>(
      await call(t.app, key, 'GET', `${path}?limit=200&offset=${offset}`),
    );
    items.push(...page.data);
    if (offset + 200 >= page.pagination.total) return items;
  }
}

const put = (mirror: Mirror, type: string, id: string, record: unknown) => {
  if (!mirror.has(type)) mirror.set(type, new Map());
  mirror.get(type)!.set(id, record);
};

/** Everything on the farm, read afresh through the lists and each record by id. */
async function freshRead(t: TestApp, key: string, farmId: string): Promise<Mirror> {
  const mirror: Mirror = new Map();
  const get = async (type: string, id: string) => put(mirror, type, id, await body(await call(t.app, key, 'GET', singlePath[type]!(id))));
  await get('farm', farmId);
  for (const [type, listed] of Object.entries(listedBy)) {
    for (const item of await listAll<Record<string, unknown>>(t, key, listed.path(farmId))) put(mirror, type, listed.id(item), item);
  }
  for (const { b_id_organic } of await listAll<{ b_id_organic: string }>(t, key, `/api/farms/${farmId}/organic-certifications`)) {
    await get('organic_certification', b_id_organic);
  }
  for (const { p_id } of await listAll<{ p_id: string }>(t, key, `/api/farms/${farmId}/fertilizers`)) await get('fertilizer', p_id);
  for (const { b_id } of await listAll<{ b_id: string }>(t, key, `/api/farms/${farmId}/fields`)) {
    await get('field', b_id);
    for (const { b_lu } of await listAll<{ b_lu: string }>(t, key, `/api/fields/${b_id}/cultivations`)) {
      await get('cultivation', b_lu);
      for (const harvest of await listAll<{ b_id_harvesting: string }>(t, key, `/api/cultivations/${b_lu}/harvests`)) {
        await get('harvest', harvest.b_id_harvesting);
      }
    }
    for (const { a_id } of await listAll<{ a_id: string }>(t, key, `/api/fields/${b_id}/soil-analyses`)) await get('soil_analysis', a_id);
    for (const application of await listAll<{ p_app_id: string }>(t, key, `/api/fields/${b_id}/fertilizer-applications`)) {
      await get('fertilizer_application', application.p_app_id);
    }
  }
  return mirror;
}

/** Reads the feed after `cursor` to its end, `limit` entries a request; returns every entry and the last `next`. */
async function follow(t: TestApp, key: string, farmId: string, cursor: string | undefined, limit: number) {
  const entries: Change[] = [];
  for (;;) {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor === undefined ? {} : { after: cursor }) });
    const page = await body<ChangePage>(await call(t.app, key, 'GET', `/api/farms/${farmId}/changes?${query}`));
    expect(page.data.length).toBeLessThanOrEqual(limit);
    entries.push(...page.data);
    cursor = page.next;
    if (!page.has_more) return { entries, next: cursor };
  }
}

/** Applies entries as a syncing client would: fetch what was created or updated, drop what a delete removed. */
async function apply(t: TestApp, key: string, farmId: string, mirror: Mirror, entries: Change[]): Promise<void> {
  for (const entry of entries) {
    if (entry.action === 'delete') {
      for (const [type, ids] of Object.entries(entry.removed!)) for (const id of ids) mirror.get(type)?.delete(id);
      continue;
    }
    const listed = listedBy[entry.type];
    if (listed) {
      const item = (await listAll<Record<string, unknown>>(t, key, listed.path(farmId))).find(
        (candidate) => listed.id(candidate) === entry.id,
      );
      if (item) put(mirror, entry.type, entry.id, item);
      else mirror.get(entry.type)?.delete(entry.id);
      continue;
    }
    const response = await call(t.app, key, 'GET', singlePath[entry.type]!(entry.id));
    // Gone since: a later tombstone of the feed says so too.
    if (response.status === 404) mirror.get(entry.type)?.delete(entry.id);
    else put(mirror, entry.type, entry.id, await body(response));
  }
}

/** Maps as plain objects, without types that hold nothing, for comparison. */
const plain = (mirror: Mirror) =>
  Object.fromEntries(
    [...mirror.entries()].filter(([, records]) => records.size > 0).map(([type, records]) => [type, Object.fromEntries(records)]),
  );

/** `count` random writes on the farm, every one of which must succeed: creates, updates and cascading deletes of every kind. */
async function randomWrites(t: TestApp, owner: Account, farmId: string, others: Account[], random: Random, count: number) {
  // What lives under what, so that a delete takes its children out of the draws, as the cascade does.
  const parentOf = new Map<string, string>();
  const live = {
    field: [] as string[],
    cultivation: [] as string[],
    harvest: [] as string[],
    soil: [] as string[],
    application: [] as string[],
  };
  const fertilizers = new Map<string, number>(); // p_id → applications using it
  const fertilizerOf = new Map<string, string>(); // p_app_id → p_id
  const members = new Set<string>();
  const derogationYears = new Set<number>();
  const certifications: string[] = [];
  const send = async (method: string, path: string, payload?: unknown) => {
    const response = await call(t.app, owner.key, method, path, payload);
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : ((await response.json()) as Record<string, string>);
  };
  const add = (list: string[], id: string, parent: string) => {
    list.push(id);
    parentOf.set(id, parent);
  };
  const removeApplication = (id: string) => {
    const p_id = fertilizerOf.get(id)!;
    fertilizers.set(p_id, fertilizers.get(p_id)! - 1);
  };
  /** Takes `id` and everything under it out of the draws. */
  const forget = (id: string) => {
    for (const [name, list] of Object.entries(live)) {
      for (const child of list.filter((candidate) => parentOf.get(candidate) === id)) {
        forget(child);
        if (name === 'application') removeApplication(child);
      }
      const at = list.indexOf(id);
      if (at >= 0) list.splice(at, 1);
    }
  };
  const take = (list: string[]) => {
    const id = random.pick(list);
    forget(id);
    return id;
  };
  let day = 0;
  const nextDate = () => `2025-0${5 + Math.floor(day / 28)}-${String((day++ % 28) + 1).padStart(2, '0')}`;
  const operations: Array<[weight: number, possible: () => boolean, run: () => Promise<unknown>]> = [
    [1, () => true, () => send('PATCH', `/api/farms/${farmId}`, { b_name_farm: `Hoeve ${random.int(1, 1e6)}` })],
    [
      1,
      () => true,
      async () => {
        const user = random.pick(others);
        members.add(user.email);
        return send('PUT', `/api/farms/${farmId}/access`, { email: user.email, role: random.pick(['advisor', 'researcher']) });
      },
    ],
    [
      1,
      () => members.size > 0,
      () => {
        const email = random.pick([...members]);
        members.delete(email);
        return send('DELETE', `/api/farms/${farmId}/access/${encodeURIComponent(email)}`);
      },
    ],
    [
      3,
      () => live.field.length < 8,
      async () => {
        const field = await send('POST', `/api/farms/${farmId}/fields`, {
          b_name: 'Perceel',
          b_geometry: rectangle(5 + random.int(0, 100) / 100, 52),
          b_start: '2020-01-01',
        });
        add(live.field, field!.b_id!, farmId);
      },
    ],
    [
      2,
      () => live.field.length > 0,
      () => send('PATCH', `/api/fields/${random.pick(live.field)}`, { b_name: `Perceel ${random.int(1, 1e6)}` }),
    ],
    [
      1,
      () => live.field.length > 0,
      async () => {
        await send('DELETE', `/api/fields/${take(live.field)}`);
      },
    ],
    [
      3,
      () => live.field.length > 0,
      async () => {
        const wheat = random.chance(0.3);
        const b_id = random.pick(live.field);
        const cultivation = await send(
          'POST',
          `/api/fields/${b_id}/cultivations`,
          wheat
            ? { b_lu_catalogue: 'nl_233', b_lu_start: '2024-10-20', b_lu_end: '2025-08-05', m_cropresidue: false }
            : { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' },
        );
        // Grass only: a wheat with an end date has its one harvest already.
        if (!wheat) add(live.cultivation, cultivation!.b_lu!, b_id);
      },
    ],
    [
      2,
      () => live.cultivation.length > 0,
      () => send('PATCH', `/api/cultivations/${random.pick(live.cultivation)}`, { m_cropresidue: random.chance(0.5) }),
    ],
    [
      1,
      () => live.cultivation.length > 0,
      async () => {
        await send('DELETE', `/api/cultivations/${take(live.cultivation)}`);
      },
    ],
    [
      3,
      () => live.cultivation.length > 0,
      async () => {
        const b_lu = random.pick(live.cultivation);
        const harvest = await send('POST', `/api/cultivations/${b_lu}/harvests`, {
          b_lu_harvest_date: nextDate(),
          b_lu_yield: random.int(1000, 5000),
          b_lu_cp: 170,
        });
        add(live.harvest, harvest!.b_id_harvesting!, b_lu);
      },
    ],
    [
      2,
      () => live.harvest.length > 0,
      () => send('PATCH', `/api/harvests/${random.pick(live.harvest)}`, { b_lu_yield: random.int(1000, 5000) }),
    ],
    [1, () => live.harvest.length > 0, () => send('DELETE', `/api/harvests/${take(live.harvest)}`)],
    [
      2,
      () => live.field.length > 0,
      async () => {
        const b_id = random.pick(live.field);
        const analysis = await send('POST', `/api/fields/${b_id}/soil-analyses`, {
          a_som_loi: 3,
          b_sampling_date: '2025-01-15',
        });
        add(live.soil, analysis!.a_id!, b_id);
      },
    ],
    [2, () => live.soil.length > 0, () => send('PATCH', `/api/soil-analyses/${random.pick(live.soil)}`, { a_som_loi: random.int(1, 9) })],
    [1, () => live.soil.length > 0, () => send('DELETE', `/api/soil-analyses/${take(live.soil)}`)],
    [
      1,
      () => fertilizers.size < 4,
      async () => {
        const fertilizer = await send('POST', `/api/farms/${farmId}/fertilizers`, { p_id_catalogue: 'BAAT028' });
        fertilizers.set(fertilizer!.p_id!, 0);
      },
    ],
    [
      1,
      () => [...fertilizers.values()].includes(0),
      async () => {
        const unused = random.pick([...fertilizers].filter(([, used]) => used === 0).map(([p_id]) => p_id));
        fertilizers.delete(unused);
        return send('DELETE', `/api/fertilizers/${unused}`);
      },
    ],
    [
      3,
      () => live.field.length > 0 && fertilizers.size > 0,
      async () => {
        const p_id = random.pick([...fertilizers.keys()]);
        const b_id = random.pick(live.field);
        const application = await send('POST', `/api/fields/${b_id}/fertilizer-applications`, {
          p_id,
          p_app_amount_display: random.int(100, 500),
          p_app_method: 'broadcasting',
          p_app_date: '2025-03-01',
        });
        fertilizers.set(p_id, fertilizers.get(p_id)! + 1);
        add(live.application, application!.p_app_id!, b_id);
        fertilizerOf.set(application!.p_app_id!, p_id);
      },
    ],
    [
      2,
      () => live.application.length > 0,
      () => send('PATCH', `/api/fertilizer-applications/${random.pick(live.application)}`, { p_app_amount_display: random.int(100, 500) }),
    ],
    [
      1,
      () => live.application.length > 0,
      () => {
        const id = take(live.application);
        removeApplication(id);
        return send('DELETE', `/api/fertilizer-applications/${id}`);
      },
    ],
    [
      1,
      () => true,
      async () => {
        // A year held already answers 200 and makes no entry.
        const year = random.int(2020, 2025);
        derogationYears.add(year);
        return send('PUT', `/api/farms/${farmId}/derogations/${year}`);
      },
    ],
    [
      1,
      () => derogationYears.size > 0,
      () => {
        const year = random.pick([...derogationYears]);
        derogationYears.delete(year);
        return send('DELETE', `/api/farms/${farmId}/derogations/${year}`);
      },
    ],
    [
      // A create, an update, or (the same intention again) nothing.
      2,
      () => true,
      () => send('PUT', `/api/farms/${farmId}/grazing-intentions/${random.int(2023, 2026)}`, { b_grazing_intention: random.chance(0.5) }),
    ],
    [
      1,
      () => certifications.length < 4,
      async () => {
        const certification = await send('POST', `/api/farms/${farmId}/organic-certifications`, organicCertificationBody);
        certifications.push(certification!.b_id_organic!);
      },
    ],
    [
      2,
      () => certifications.length > 0,
      () => {
        const id = random.pick(certifications);
        certifications.splice(certifications.indexOf(id), 1);
        return send('DELETE', `/api/organic-certifications/${id}`);
      },
    ],
  ];
  const kinds = new Set<string>();
  for (let done = 0; done < count; done++) {
    const possible = operations.filter(([, isPossible]) => isPossible());
    const total = possible.reduce((sum, [weight]) => sum + weight, 0);
    let draw = random.next() * total;
    const chosen = possible.find(([weight]) => (draw -= weight) < 0) ?? possible[possible.length - 1]!;
    kinds.add(String(operations.indexOf(chosen)));
    await chosen[2]();
  }
  return kinds.size;
}

describe.each(storageKinds)('the change feed on %s', (kind) => {
  let t: TestApp;
  let owner: Account;
  let others: Account[];
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await signUpWithKey(t.app);
    others = [await signUpWithKey(t.app), await signUpWithKey(t.app), await signUpWithKey(t.app)];
  });
  afterAll(() => t.close());

  const feed = (key: string, farmId: string, query = '') => call(t.app, key, 'GET', `/api/farms/${farmId}/changes${query}`);

  it('replayed from the start and from a mid cursor reproduces the farm after 200 random writes', async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    const random = new Random(kind === 'pglite' ? 23 : 2023);
    await randomWrites(t, owner, farmId, others, random, 100);
    // A client that synced here: a fresh read, and the feed's end as its cursor.
    const midMirror = await freshRead(t, owner.key, farmId);
    const { next: midCursor } = await follow(t, owner.key, farmId, undefined, 200);
    const kinds = await randomWrites(t, owner, farmId, others, random, 100);
    expect(kinds).toBeGreaterThanOrEqual(20);

    const expected = plain(await freshRead(t, owner.key, farmId));
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining(['farm', 'member', 'field', 'cultivation', 'harvest', 'soil_analysis', 'grazing_intention']),
    );

    const fromStart: Mirror = new Map();
    const all = await follow(t, owner.key, farmId, undefined, 7);
    await apply(t, owner.key, farmId, fromStart, all.entries);
    expect(plain(fromStart)).toEqual(expected);
    // Every removal the random writes made is in the feed, a cascade as one tombstone that lists what went with it.
    const cascades = all.entries.filter((e) => e.action === 'delete' && Object.keys(e.removed!).length > 1);
    expect(cascades.length).toBeGreaterThan(0);
    for (const entry of all.entries.filter((e) => e.action === 'delete')) expect(entry.removed![entry.type]).toContain(entry.id);
    expect(all.entries.map((e) => `${e.action} ${e.type}`)).toEqual(
      expect.arrayContaining([
        'create derogation',
        'delete derogation',
        'create grazing_intention',
        'update grazing_intention',
        'create organic_certification',
        'delete organic_certification',
      ]),
    );

    const fromMid = midMirror;
    const rest = await follow(t, owner.key, farmId, midCursor, 13);
    expect(rest.entries.length).toBeLessThan(all.entries.length);
    await apply(t, owner.key, farmId, fromMid, rest.entries);
    expect(plain(fromMid)).toEqual(expected);
    // Caught up: the last cursor gives nothing more.
    expect(await body<ChangePage>(await feed(owner.key, farmId, `?after=${rest.next}`))).toEqual({
      data: [],
      next: rest.next,
      has_more: false,
    });
  }, 120_000);

  it('lists entries in commit order with the record times, one tombstone per delete', async () => {
    const farm = await createFarm(t.app, owner.key);
    const field = await created<{ b_id: string; updated_at: string }>(
      call(t.app, owner.key, 'POST', `/api/farms/${farm.b_id_farm}/fields`, {
        b_name: 'A',
        b_geometry: rectangle(),
        b_start: '2020-01-01',
      }),
    );
    const cultivation = await created<{ b_lu: string }>(
      call(t.app, owner.key, 'POST', `/api/fields/${field.b_id}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' }),
    );
    const harvest = await created<{ b_id_harvesting: string }>(
      call(t.app, owner.key, 'POST', `/api/cultivations/${cultivation.b_lu}/harvests`, {
        b_lu_harvest_date: '2025-06-01',
        b_lu_yield: 3000,
        b_lu_cp: 170,
      }),
    );
    const renamed = await body<{ updated_at: string }>(await call(t.app, owner.key, 'PATCH', `/api/fields/${field.b_id}`, { b_name: 'B' }));
    expect((await call(t.app, owner.key, 'DELETE', `/api/fields/${field.b_id}`)).status).toBe(204);

    const page = await body<ChangePage>(await feed(owner.key, farm.b_id_farm));
    expect(page.data.map((e) => [e.action, e.type])).toEqual([
      ['create', 'farm'],
      ['create', 'member'],
      ['create', 'field'],
      ['create', 'cultivation'],
      ['create', 'harvest'],
      ['update', 'field'],
      ['delete', 'field'],
    ]);
    expect(page.data[1]!.id).toBe(owner.email);
    expect(page.data[2]).toEqual({ action: 'create', type: 'field', id: field.b_id, updated_at: field.updated_at, removed: null });
    expect(page.data[5]!.updated_at).toBe(renamed.updated_at);
    expect(page.data[6]!.removed).toEqual({ field: [field.b_id], cultivation: [cultivation.b_lu], harvest: [harvest.b_id_harvesting] });
    expect(page.has_more).toBe(false);
  });

  it("names a farm's derogations and grazing intentions by year, its organic certifications by id", async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    const start = await body<ChangePage>(await feed(owner.key, farmId));
    const write = async (method: string, path: string, status: number, payload?: unknown) => {
      const response = await call(t.app, owner.key, method, path, payload);
      expect(response.status).toBe(status);
      return status === 204 ? undefined : ((await response.json()) as { updated_at: string; b_id_organic: string });
    };
    const derogation = await write('PUT', `/api/farms/${farmId}/derogations/2024`, 201);
    await write('PUT', `/api/farms/${farmId}/derogations/2024`, 200);
    const intention = await write('PUT', `/api/farms/${farmId}/grazing-intentions/2025`, 201, { b_grazing_intention: false });
    const changed = await write('PUT', `/api/farms/${farmId}/grazing-intentions/2025`, 200, { b_grazing_intention: true });
    await write('PUT', `/api/farms/${farmId}/grazing-intentions/2025`, 200, { b_grazing_intention: true });
    const certification = await write('POST', `/api/farms/${farmId}/organic-certifications`, 201, organicCertificationBody);
    await write('DELETE', `/api/organic-certifications/${certification!.b_id_organic}`, 204);
    await write('DELETE', `/api/farms/${farmId}/derogations/2024`, 204);

    const page = await body<ChangePage>(await feed(owner.key, farmId, `?after=${start.next}`));
    expect(page.data).toEqual([
      { action: 'create', type: 'derogation', id: '2024', updated_at: derogation!.updated_at, removed: null },
      { action: 'create', type: 'grazing_intention', id: '2025', updated_at: intention!.updated_at, removed: null },
      { action: 'update', type: 'grazing_intention', id: '2025', updated_at: changed!.updated_at, removed: null },
      {
        action: 'create',
        type: 'organic_certification',
        id: certification!.b_id_organic,
        updated_at: certification!.updated_at,
        removed: null,
      },
      {
        action: 'delete',
        type: 'organic_certification',
        id: certification!.b_id_organic,
        updated_at: expect.any(String) as string,
        removed: { organic_certification: [certification!.b_id_organic] },
      },
      { action: 'delete', type: 'derogation', id: '2024', updated_at: expect.any(String) as string, removed: { derogation: ['2024'] } },
    ]);
    expect(changed!.updated_at > intention!.updated_at).toBe(true);
  });

  it('pages by limit and next, and refuses a cursor it did not hand out', async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    for (let i = 0; i < 4; i++) await call(t.app, owner.key, 'PATCH', `/api/farms/${farmId}`, { b_name_farm: `Hoeve ${i}` });
    const whole = await body<ChangePage>(await feed(owner.key, farmId));
    expect(whole.data).toHaveLength(6);

    const first = await body<ChangePage>(await feed(owner.key, farmId, '?limit=4'));
    expect(first.data).toEqual(whole.data.slice(0, 4));
    expect(first.has_more).toBe(true);
    const second = await body<ChangePage>(await feed(owner.key, farmId, `?limit=4&after=${first.next}`));
    expect(second.data).toEqual(whole.data.slice(4));
    expect(second.has_more).toBe(false);
    expect(second.next).toBe(whole.next);

    const other = (await createFarm(t.app, owner.key)).b_id_farm;
    const problem = await expectProblem(await feed(owner.key, other, `?after=${first.next}`), 400, 'validation-failed');
    expect(problem.errors).toEqual([
      { field: 'after', message: 'is not a cursor of this change feed: send the `next` of an earlier answer' },
    ]);
    for (const bad of ['x', 'NDI', first.next.slice(0, -2), `${first.next}=`, 'a'.repeat(500), '']) {
      await expectProblem(await feed(owner.key, farmId, `?after=${encodeURIComponent(bad)}`), 400, 'validation-failed');
    }
    await expectProblem(await feed(owner.key, farmId, '?limit=0'), 400, 'validation-failed');
    await expectProblem(await feed(owner.key, farmId, '?limit=201'), 400, 'validation-failed');
  });

  it('refuses a cursor made by hand or altered with 400: a cursor is sealed, and says nothing of its position', async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    const end = await body<ChangePage>(await feed(owner.key, farmId));
    const forge = (text: string) => Buffer.from(text).toString('base64url');
    const bytes = Buffer.from(end.next, 'base64url');
    const flipped = (index: number) => {
      const copy = Buffer.from(bytes);
      copy[index] = copy[index]! ^ 1;
      return copy.toString('base64url');
    };
    // The plain cursors of before (the forgery of the issue, in either spelling), one of the same length
    // made up, and the one handed out with a bit of its IV, its position or its signature changed.
    const forged = [
      forge(`${farmId}.2`),
      forge(`${farmId}:999999999999999`),
      forge(`${farmId}.999999999999999`),
      'A'.repeat(end.next.length),
      flipped(0),
      flipped(20),
      flipped(bytes.length - 1),
    ];
    for (const cursor of forged) {
      const problem = await expectProblem(await feed(owner.key, farmId, `?after=${cursor}`), 400, 'validation-failed');
      expect(problem.errors).toEqual([{ field: 'after', message: expect.any(String) as string }]);
    }
    // Nothing in it reads as the farm or a number.
    expect(bytes.toString('latin1')).not.toContain(farmId);
    expect(bytes.toString('latin1')).not.toMatch(/[.:]\d/);
    // The end itself stays good, and so does it once the feed has moved on.
    expect((await feed(owner.key, farmId, `?after=${end.next}`)).status).toBe(200);
    await call(t.app, owner.key, 'PATCH', `/api/farms/${farmId}`, { b_name_farm: 'Verder' });
    expect((await body<ChangePage>(await feed(owner.key, farmId, `?after=${end.next}`))).data).toHaveLength(1);
  });

  it("numbers each farm's entries on their own: another user's writes do not move this feed's cursor", async () => {
    const mine = (await createFarm(t.app, owner.key)).b_id_farm;
    const start = await body<ChangePage>(await feed(owner.key, mine));
    // The farm's create and its owner's role.
    expect(start.data).toHaveLength(2);
    const [stranger] = others;
    const theirs = (await createFarm(t.app, stranger!.key)).b_id_farm;
    for (let i = 0; i < 37; i++) await call(t.app, stranger!.key, 'PATCH', `/api/farms/${theirs}`, { b_name_farm: `Hoeve ${i}` });
    expect(await body<ChangePage>(await feed(owner.key, mine, `?after=${start.next}`))).toEqual({
      data: [],
      next: start.next,
      has_more: false,
    });
    expect((await body<ChangePage>(await feed(owner.key, mine))).next).toBe(start.next);
    await call(t.app, owner.key, 'PATCH', `/api/farms/${mine}`, { b_name_farm: 'Eigen' });
    const after = await body<ChangePage>(await feed(owner.key, mine, `?after=${start.next}`));
    expect(after.data).toHaveLength(1);
    expect(after.next).not.toBe(start.next);
  });

  it('moves the cursor of a reader who is not shown roles only with the entries shown: grants and removals leave it where it was', async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    const [researcher, , someone] = others;
    expect(
      (await call(t.app, owner.key, 'PUT', `/api/farms/${farmId}/access`, { email: researcher!.email, role: 'researcher' })).status,
    ).toBe(200);
    const seen = await body<ChangePage>(await feed(researcher!.key, farmId));
    expect(seen.data.map((entry) => entry.type)).toEqual(['farm']);
    // A role granted and taken back: two entries the researcher may not see.
    expect((await call(t.app, owner.key, 'PUT', `/api/farms/${farmId}/access`, { email: someone!.email, role: 'advisor' })).status).toBe(
      200,
    );
    expect((await call(t.app, owner.key, 'DELETE', `/api/farms/${farmId}/access/${encodeURIComponent(someone!.email)}`)).status).toBe(204);
    expect(await body<ChangePage>(await feed(researcher!.key, farmId, `?after=${seen.next}`))).toEqual({
      data: [],
      next: seen.next,
      has_more: false,
    });
    expect((await body<ChangePage>(await feed(researcher!.key, farmId))).next).toBe(seen.next);
    // The owner, who sees them, moves on.
    const ownerEnd = await body<ChangePage>(await feed(owner.key, farmId));
    expect(ownerEnd.data.map((entry) => entry.type)).toEqual(['farm', 'member', 'member', 'member', 'member']);
    // A change the researcher is shown moves the cursor again, by that one entry.
    await call(t.app, owner.key, 'PATCH', `/api/farms/${farmId}`, { b_name_farm: 'Nieuw' });
    const next = await body<ChangePage>(await feed(researcher!.key, farmId, `?after=${seen.next}`));
    expect(next.data.map((entry) => entry.type)).toEqual(['farm']);
    expect(next.next).toBe((await body<ChangePage>(await feed(owner.key, farmId, `?after=${ownerEnd.next}`))).next);
  });

  it('is read by every role; members are listed to owners only; no role is 404', async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    const [researcher, advisor, stranger] = others;
    for (const [user, role] of [
      [researcher!, 'researcher'],
      [advisor!, 'advisor'],
    ] as const) {
      expect((await call(t.app, owner.key, 'PUT', `/api/farms/${farmId}/access`, { email: user.email, role })).status).toBe(200);
    }
    await call(t.app, owner.key, 'PATCH', `/api/farms/${farmId}`, { b_name_farm: 'Nieuw' });

    const asOwner = await body<ChangePage>(await feed(owner.key, farmId));
    expect(asOwner.data.map((e) => e.type)).toEqual(['farm', 'member', 'member', 'member', 'farm']);
    for (const user of [researcher!, advisor!]) {
      // The entries of roles are passed over, so a page is full of what the role is shown.
      const page = await body<ChangePage>(await feed(user.key, farmId, '?limit=1'));
      expect(page.data).toEqual([asOwner.data[0]]);
      expect(page.has_more).toBe(true);
      const rest = await body<ChangePage>(await feed(user.key, farmId, `?after=${page.next}`));
      expect(rest.data).toEqual([asOwner.data[4]]);
      expect(rest.has_more).toBe(false);
      expect(rest.next).toBe(asOwner.next);
    }
    await expectProblem(await feed(stranger!.key, farmId), 404, 'not-found');
    await expectProblem(await feed(owner.key, 'AAAAAAAAAAAAAAAAAAAAAA'), 404, 'not-found');
  });

  it('goes with its farm: a deleted farm has no feed and leaves no entry', async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    await created(
      call(t.app, owner.key, 'POST', `/api/farms/${farmId}/fields`, { b_name: 'A', b_geometry: rectangle(), b_start: '2020-01-01' }),
    );
    await created(call(t.app, owner.key, 'PUT', `/api/farms/${farmId}/derogations/2025`));
    await created(call(t.app, owner.key, 'PUT', `/api/farms/${farmId}/grazing-intentions/2025`, { b_grazing_intention: true }));
    await created(call(t.app, owner.key, 'POST', `/api/farms/${farmId}/organic-certifications`, organicCertificationBody));
    expect((await call(t.app, owner.key, 'DELETE', `/api/farms/${farmId}`)).status).toBe(204);
    await expectProblem(await feed(owner.key, farmId), 404, 'not-found');
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from farm_changes where b_id_farm = ${farmId}`,
    );
    expect(row!.n).toBe(0);
  });

  it('keeps entries for the retention period: a cursor older than the oldest kept entry is 410', async () => {
    const farmId = (await createFarm(t.app, owner.key)).b_id_farm;
    const start = await body<ChangePage>(await feed(owner.key, farmId, '?limit=1'));
    const old = await body<ChangePage>(await feed(owner.key, farmId));
    await call(t.app, owner.key, 'PATCH', `/api/farms/${farmId}`, { b_name_farm: 'Nieuw' });
    // The farm's first two entries are 91 days old now.
    await t.database.db.execute(
      sql`update farm_changes set changed_at = now() - interval '91 days' where b_id_farm = ${farmId} and action = 'create'`,
    );
    expect(await pruneChanges(t.database.db, 90)).toBeGreaterThanOrEqual(2);

    const problem = await expectProblem(await feed(owner.key, farmId, `?after=${start.next}`), 410, 'cursor-expired');
    expect(problem.detail).toMatch(/read the farm afresh/);
    // A cursor at the last pruned entry has missed nothing; without one, the feed starts at the oldest kept entry.
    const kept = await body<ChangePage>(await feed(owner.key, farmId, `?after=${old.next}`));
    expect(kept.data.map((e) => [e.action, e.type])).toEqual([['update', 'farm']]);
    expect(await body<ChangePage>(await feed(owner.key, farmId))).toEqual(kept);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('change-feed cursors of two processes on one PostgreSQL', () => {
  it('are read by either: the key that seals them is made once and kept in the database', async () => {
    await withTwoProcessesOnPostgres(async (a, b) => {
      const user = await signUpWithKey(a.app);
      const farmId = (await createFarm(a.app, user.key)).b_id_farm;
      const fromA = (await call(a.app, user.key, 'GET', `/api/farms/${farmId}/changes`).then((r) => r.json())) as { next: string };
      await call(b.app, user.key, 'PATCH', `/api/farms/${farmId}`, { b_name_farm: 'Elders' });
      const onB = await call(b.app, user.key, 'GET', `/api/farms/${farmId}/changes?after=${fromA.next}`);
      expect(onB.status).toBe(200);
      const page = (await onB.json()) as { data: Array<{ type: string }>; next: string };
      expect(page.data.map((entry) => entry.type)).toEqual(['farm']);
      expect((await call(a.app, user.key, 'GET', `/api/farms/${farmId}/changes?after=${page.next}`)).status).toBe(200);
    });
  });
});
