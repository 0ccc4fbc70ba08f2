// Writes that overlap, over real sockets: two changes of different members of one record both
// survive, and a record created while its parent (or grandparent) is deleted is either refused
// with 404 or deleted with it — never a 5xx, never an orphan left readable.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFarm, signUpWithKey, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { acquireFertilizer, createField, rectangle } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;

interface Tree {
  farm: string;
  field: string;
  cultivation: string;
  harvest: string;
  analysis: string;
  fertilizer: string;
  application: string;
}

describe.each(storageKinds)('write races (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;

  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  const send = (method: string, path: string, body?: unknown) => server.send(owner.key, method, path, body);

  async function post<T>(path: string, body: unknown): Promise<T> {
    const response = await send('POST', path, body);
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A farm with one record of every kind below it, built through the API. */
  async function tree(): Promise<Tree> {
    const farm = (await createFarm(server.app, owner.key)).b_id_farm;
    const field = (
      await post<{ b_id: string }>(`/api/farms/${farm}/fields`, { b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01' })
    ).b_id;
    const cultivation = (
      await post<{ b_lu: string }>(`/api/fields/${field}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' })
    ).b_lu;
    const harvest = (
      await post<{ b_id_harvesting: string }>(`/api/cultivations/${cultivation}/harvests`, {
        b_lu_harvest_date: '2025-06-01',
        b_lu_yield: 3000,
        b_lu_cp: 170,
      })
    ).b_id_harvesting;
    const analysis = (await post<{ a_id: string }>(`/api/fields/${field}/soil-analyses`, { a_som_loi: 3, b_sampling_date: '2025-01-15' }))
      .a_id;
    const fertilizer = (await post<{ p_id: string }>(`/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT028' })).p_id;
    const application = (
      await post<{ p_app_id: string }>(`/api/fields/${field}/fertilizer-applications`, {
        p_id: fertilizer,
        p_app_amount_display: 100,
        p_app_method: 'injection',
        p_app_date: '2025-03-01',
      })
    ).p_app_id;
    return { farm, field, cultivation, harvest, analysis, fertilizer, application };
  }

  // Two PATCHes of different members of one record, and what each must leave behind.
  const patches: Array<{ kind: string; path: (t: Tree) => string; first: object; second: object }> = [
    { kind: 'farm', path: (t) => `/api/farms/${t.farm}`, first: { b_name_farm: 'Renamed' }, second: { b_address_farm: 'Dorpsstraat 1' } },
    { kind: 'field', path: (t) => `/api/fields/${t.field}`, first: { b_name: 'Renamed' }, second: { b_bufferstrip: true } },
    {
      kind: 'cultivation',
      path: (t) => `/api/cultivations/${t.cultivation}`,
      first: { m_cropresidue: true },
      second: { b_lu_end: '2025-10-01' },
    },
    { kind: 'harvest', path: (t) => `/api/harvests/${t.harvest}`, first: { b_lu_yield: 4000 }, second: { b_lu_cp: 190 } },
    { kind: 'soil analysis', path: (t) => `/api/soil-analyses/${t.analysis}`, first: { a_som_loi: 5 }, second: { a_ph_cc: 6.5 } },
    {
      kind: 'fertilizer application',
      path: (t) => `/api/fertilizer-applications/${t.application}`,
      first: { p_app_amount_display: 150 },
      second: { p_app_date: '2025-04-01' },
    },
  ];

  test.each(patches)('two PATCHes of different members of one $kind both keep their change', async ({ path, first, second }) => {
    for (let round = 0; round < ROUNDS; round++) {
      const t = await tree();
      const [a, b] = await Promise.all([send('PATCH', path(t), first), send('PATCH', path(t), second)]);
      expect([a.status, b.status], `round ${round}`).toEqual([200, 200]);
      const stored = (await (await send('GET', path(t))).json()) as Record<string, unknown>;
      expect(stored, `round ${round}`).toMatchObject({ ...first, ...second });
    }
  });

  test('two PATCHes of one harvest leave the derived values of both changes', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const t = await tree();
      await Promise.all([
        send('PATCH', `/api/harvests/${t.harvest}`, { b_lu_yield: 4000 }),
        send('PATCH', `/api/harvests/${t.harvest}`, { b_lu_cp: 190 }),
      ]);
      const stored = (await (await send('GET', `/api/harvests/${t.harvest}`)).json()) as Record<string, unknown>;
      const recomputed = (await (await send('PATCH', `/api/harvests/${t.harvest}`, {})).json()) as Record<string, unknown>;
      expect(stored.b_lu_n_harvestable, `round ${round}`).toBe(recomputed.b_lu_n_harvestable);
    }
  });

  // A child of each kind created under `parent` (a path prefix of the tree), and where it would be read.
  const children: Array<{
    kind: string;
    under: 'farm' | 'field' | 'cultivation';
    create: (t: Tree) => [string, object];
    idKey: string;
    read: (id: string) => string;
  }> = [
    {
      kind: 'field',
      idKey: 'b_id',
      under: 'farm',
      create: (t) => [`/api/farms/${t.farm}/fields`, { b_name: 'Nieuw', b_geometry: rectangle(6, 52), b_start: '2021-01-01' }],
      read: (id) => `/api/fields/${id}`,
    },
    {
      kind: 'fertilizer',
      idKey: 'p_id',
      under: 'farm',
      create: (t) => [`/api/farms/${t.farm}/fertilizers`, { p_id_catalogue: 'BAAT050' }],
      read: (id) => `/api/fertilizers/${id}`,
    },
    {
      kind: 'cultivation',
      idKey: 'b_lu',
      under: 'field',
      create: (t) => [`/api/fields/${t.field}/cultivations`, { b_lu_catalogue: 'nl_233', b_lu_start: '2025-02-01' }],
      read: (id) => `/api/cultivations/${id}`,
    },
    {
      kind: 'soil analysis',
      idKey: 'a_id',
      under: 'field',
      create: (t) => [`/api/fields/${t.field}/soil-analyses`, { a_som_loi: 4, b_sampling_date: '2025-02-15' }],
      read: (id) => `/api/soil-analyses/${id}`,
    },
    {
      kind: 'fertilizer application',
      idKey: 'p_app_id',
      under: 'field',
      create: (t) => [
        `/api/fields/${t.field}/fertilizer-applications`,
        { p_id: t.fertilizer, p_app_amount_display: 50, p_app_method: 'injection', p_app_date: '2025-05-01' },
      ],
      read: (id) => `/api/fertilizer-applications/${id}`,
    },
    {
      kind: 'harvest',
      idKey: 'b_id_harvesting',
      under: 'cultivation',
      create: (t) => [`/api/cultivations/${t.cultivation}/harvests`, { b_lu_harvest_date: '2025-07-01', b_lu_yield: 2000, b_lu_cp: 160 }],
      read: (id) => `/api/harvests/${id}`,
    },
  ];
  const depth = { farm: 0, field: 1, cultivation: 2 } as const;
  const deletions = (['farm', 'field', 'cultivation'] as const).flatMap((parent) =>
    children.filter((child) => depth[child.under] >= depth[parent]).map((child) => ({ parent, child: child.kind, ...child })),
  );
  const parentPath = {
    farm: (t: Tree) => `/api/farms/${t.farm}`,
    field: (t: Tree) => `/api/fields/${t.field}`,
    cultivation: (t: Tree) => `/api/cultivations/${t.cultivation}`,
  };

  test.each(deletions)(
    'deleting a $parent while a $child is added under it: 2xx or 404 only, nothing left',
    async ({ parent, create, idKey, read }) => {
      for (let round = 0; round < ROUNDS; round++) {
        const t = await tree();
        const [path, body] = create(t);
        const [made, deleted] = await Promise.all([send('POST', path, body), send('DELETE', parentPath[parent](t))]);
        expect(deleted.status, `round ${round}: ${await deleted.clone().text()}`).toBe(204);
        expect([201, 404], `round ${round}: ${await made.clone().text()}`).toContain(made.status);
        if (made.status === 201) {
          const child = (await made.json()) as Record<string, string>;
          expect((await send('GET', read(child[idKey]!))).status, `round ${round}: the new record outlived its ${parent}`).toBe(404);
        }
        expect((await send('GET', parentPath[parent](t))).status).toBe(404);
      }
    },
  );
});

describe.each(storageKinds)('lists while records are added (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;

  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  test('a page and its total come from one moment', async () => {
    const farm = (await createFarm(server.app, owner.key)).b_id_farm;
    const field = await createField(server.app, owner.key, farm);
    const fertilizer = await acquireFertilizer(server.app, owner.key, farm, 'BAAT028');
    const lists = [`/api/fields/${field.b_id}/soil-analyses`, `/api/fields/${field.b_id}/fertilizer-applications`];
    const additions = [
      () => server.send(owner.key, 'POST', lists[0]!, { a_som_loi: 3, b_sampling_date: '2025-01-15' }),
      () =>
        server.send(owner.key, 'POST', lists[1]!, {
          p_id: fertilizer.p_id,
          p_app_amount_display: 10,
          p_app_method: 'injection',
          p_app_date: '2025-03-01',
        }),
    ];
    const disagreements: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all([
        ...additions.flatMap((add) => Array.from({ length: 4 }, add)),
        ...lists.flatMap((list) => Array.from({ length: 4 }, () => server.send(owner.key, 'GET', `${list}?offset=1`))),
      ]);
      for (const answer of answers.slice(additions.length * 4)) {
        const page = (await answer.json()) as { data: unknown[]; pagination: { total: number } };
        const expected = Math.max(0, Math.min(50, page.pagination.total - 1));
        if (page.data.length !== expected) disagreements.push(`round ${round}: ${page.data.length} items, total ${page.pagination.total}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
