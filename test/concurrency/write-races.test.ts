// Writes that overlap, over real sockets: two changes of different members of one record both
// survive, and a record created while its parent (or grandparent) is deleted is either refused
// with 404 or deleted with it — never a 5xx, never an orphan left readable.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFarm, signUpWithKey, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { acquireFertilizer, createField, farmWithEverything, rectangle, type FarmFixture } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

const ROUNDS = 20;

describe.each(storageKinds)('write races (%s)', (kind) => {
  let server: ListeningApp;
  let owner: Account;

  beforeAll(async () => {
    server = await startListeningApp(kind);
    owner = await signUpWithKey(server.app);
  });
  afterAll(() => server?.close());

  const send = (method: string, path: string, body?: unknown) => server.send(owner.key, method, path, body);

  /** A farm with one record of every kind below it, built through the API over the socket. */
  const tree = () => farmWithEverything((path, init) => fetch(`${server.url}${path}`, init), owner.key);

  async function post(path: string, body: unknown): Promise<Record<string, string>> {
    const response = await send('POST', path, body);
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  }

  // Two PATCHes of different members of one record, each round with new values, so that a change
  // lost to the other PATCH leaves the value of the round before.
  const patches: Array<{ kind: string; path: (t: FarmFixture) => string; first: (r: number) => object; second: (r: number) => object }> = [
    {
      kind: 'farm',
      path: (t) => `/api/farms/${t.b_id_farm}`,
      first: (r) => ({ b_name_farm: `Renamed ${r}` }),
      second: (r) => ({ b_address_farm: `Dorpsstraat ${r}` }),
    },
    {
      kind: 'field',
      path: (t) => `/api/fields/${t.b_id}`,
      first: (r) => ({ b_name: `Renamed ${r}` }),
      second: (r) => ({ b_bufferstrip: r % 2 === 0 }),
    },
    {
      kind: 'cultivation',
      path: (t) => `/api/cultivations/${t.b_lu}`,
      first: (r) => ({ m_cropresidue: r % 2 === 0 }),
      second: (r) => ({ b_lu_end: `2025-10-${String(r + 1).padStart(2, '0')}` }),
    },
    {
      kind: 'harvest',
      path: (t) => `/api/harvests/${t.b_id_harvesting}`,
      first: (r) => ({ b_lu_yield: 4000 + r }),
      second: (r) => ({ b_lu_cp: 150 + r }),
    },
    {
      kind: 'soil analysis',
      path: (t) => `/api/soil-analyses/${t.a_id}`,
      first: (r) => ({ a_som_loi: 3 + r / 10 }),
      second: (r) => ({ a_ph_cc: 5 + r / 10 }),
    },
    {
      kind: 'fertilizer application',
      path: (t) => `/api/fertilizer-applications/${t.p_app_id}`,
      first: (r) => ({ p_app_amount_display: 150 + r }),
      second: (r) => ({ p_app_date: `2025-04-${String(r + 1).padStart(2, '0')}` }),
    },
  ];

  test.each(patches)('two PATCHes of different members of one $kind both keep their change', async ({ path, first, second }) => {
    const t = await tree();
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await Promise.all([send('PATCH', path(t), first(round)), send('PATCH', path(t), second(round))]);
      expect([a.status, b.status], `round ${round}`).toEqual([200, 200]);
      const stored = (await (await send('GET', path(t))).json()) as Record<string, unknown>;
      expect(stored, `round ${round}`).toMatchObject({ ...first(round), ...second(round) });
    }
  });

  test('two PATCHes of one harvest leave the derived values of both changes', async () => {
    const t = await tree();
    const harvest = `/api/harvests/${t.b_id_harvesting}`;
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all([send('PATCH', harvest, { b_lu_yield: 4000 + round }), send('PATCH', harvest, { b_lu_cp: 150 + round })]);
      const stored = (await (await send('GET', harvest)).json()) as Record<string, unknown>;
      const recomputed = (await (await send('PATCH', harvest, {})).json()) as Record<string, unknown>;
      expect(stored.b_lu_n_harvestable, `round ${round}`).toBe(recomputed.b_lu_n_harvestable);
    }
  });

  /** What a race needs, built through the API: a farm, and below it only what `needs` names. */
  interface Branch {
    farm: string;
    field?: string;
    cultivation?: string;
    fertilizer?: string;
  }
  type Need = 'field' | 'cultivation' | 'fertilizer';
  async function branch(needs: Need[]): Promise<Branch> {
    const made: Branch = { farm: (await createFarm(server.app, owner.key)).b_id_farm };
    if (needs.includes('field') || needs.includes('cultivation'))
      made.field = (
        await post(`/api/farms/${made.farm}/fields`, { b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01' })
      ).b_id;
    if (needs.includes('cultivation'))
      made.cultivation = (
        await post(`/api/fields/${made.field}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' })
      ).b_lu;
    if (needs.includes('fertilizer'))
      made.fertilizer = (await post(`/api/farms/${made.farm}/fertilizers`, { p_id_catalogue: 'BAAT028' })).p_id;
    return made;
  }

  // A child of each kind: what it needs above it, how it is added, and where it would be read.
  const children: Array<{
    kind: string;
    under: Need | 'farm';
    needs: Need[];
    create: (b: Branch) => [string, object];
    idKey: string;
    read: (id: string) => string;
  }> = [
    {
      kind: 'field',
      under: 'farm',
      needs: [],
      create: (b) => [`/api/farms/${b.farm}/fields`, { b_name: 'Nieuw', b_geometry: rectangle(6, 52), b_start: '2021-01-01' }],
      idKey: 'b_id',
      read: (id) => `/api/fields/${id}`,
    },
    {
      kind: 'fertilizer',
      under: 'farm',
      needs: [],
      create: (b) => [`/api/farms/${b.farm}/fertilizers`, { p_id_catalogue: 'BAAT050' }],
      idKey: 'p_id',
      read: (id) => `/api/fertilizers/${id}`,
    },
    {
      kind: 'cultivation',
      under: 'field',
      needs: ['field'],
      create: (b) => [`/api/fields/${b.field}/cultivations`, { b_lu_catalogue: 'nl_233', b_lu_start: '2025-02-01' }],
      idKey: 'b_lu',
      read: (id) => `/api/cultivations/${id}`,
    },
    {
      kind: 'soil analysis',
      under: 'field',
      needs: ['field'],
      create: (b) => [`/api/fields/${b.field}/soil-analyses`, { a_som_loi: 4, b_sampling_date: '2025-02-15' }],
      idKey: 'a_id',
      read: (id) => `/api/soil-analyses/${id}`,
    },
    {
      kind: 'fertilizer application',
      under: 'field',
      needs: ['field', 'fertilizer'],
      create: (b) => [
        `/api/fields/${b.field}/fertilizer-applications`,
        { p_id: b.fertilizer, p_app_amount_display: 50, p_app_method: 'injection', p_app_date: '2025-05-01' },
      ],
      idKey: 'p_app_id',
      read: (id) => `/api/fertilizer-applications/${id}`,
    },
    {
      kind: 'harvest',
      under: 'cultivation',
      needs: ['cultivation'],
      create: (b) => [`/api/cultivations/${b.cultivation}/harvests`, { b_lu_harvest_date: '2025-07-01', b_lu_yield: 2000, b_lu_cp: 160 }],
      idKey: 'b_id_harvesting',
      read: (id) => `/api/harvests/${id}`,
    },
  ];
  const depth = { farm: 0, field: 1, cultivation: 2, fertilizer: 1 } as const;
  const deletions = (['farm', 'field', 'cultivation'] as const).flatMap((parent) =>
    children
      .filter((child) => child.under !== 'fertilizer' && depth[child.under] >= depth[parent])
      .map((child) => ({ parent, child: child.kind, ...child })),
  );
  const parentPath = {
    farm: (b: Branch) => `/api/farms/${b.farm}`,
    field: (b: Branch) => `/api/fields/${b.field}`,
    cultivation: (b: Branch) => `/api/cultivations/${b.cultivation}`,
  };

  test.each(deletions)(
    'deleting a $parent while a $child is added under it: 2xx or 404 only, nothing left',
    async ({ parent, needs, create, idKey, read }) => {
      for (let round = 0; round < ROUNDS; round++) {
        const b = await branch(parent === 'farm' ? needs : [...needs, parent]);
        const [path, body] = create(b);
        const [made, deleted] = await Promise.all([send('POST', path, body), send('DELETE', parentPath[parent](b))]);
        expect(deleted.status, `round ${round}: ${await deleted.clone().text()}`).toBe(204);
        expect([201, 404], `round ${round}: ${await made.clone().text()}`).toContain(made.status);
        if (made.status === 201) {
          const child = (await made.json()) as Record<string, string>;
          expect((await send('GET', read(child[idKey]!))).status, `round ${round}: the new record outlived its ${parent}`).toBe(404);
        }
        expect((await send('GET', parentPath[parent](b))).status).toBe(404);
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

  // 20 rounds of 16 overlapping requests: far past the default 30 s on a loaded two-core machine.
  test('a page and its total come from one moment', { timeout: 120_000 }, async () => {
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
