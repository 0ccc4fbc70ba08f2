// Fields and the geometry limit (10,000 coordinates): geometry rules, derived area, date filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { created, createField, rectangle } from '../helpers/fixtures.js';

/** A square with a hole whose ring has `holePositions` positions (closed), so all rings hold 5 + holePositions. */
function squareWithHole(holePositions: number) {
  const outer = [
    [5, 52],
    [5.01, 52],
    [5.01, 52.01],
    [5, 52.01],
    [5, 52],
  ];
  const hole: number[][] = [];
  const open = holePositions - 1;
  for (let i = 0; i < open; i++) {
    const angle = (2 * Math.PI * i) / open;
    hole.push([5.005 + 0.002 * Math.cos(angle), 52.005 + 0.002 * Math.sin(angle)]);
  }
  hole.push(hole[0]!);
  return { type: 'Polygon', coordinates: [outer, hole] };
}

describe.each(storageKinds)('fields on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
  });
  afterAll(() => t.close());

  const post = (body: Record<string, unknown>) =>
    call(t.app, user.key, 'POST', `/api/farms/${farmId}/fields`, {
      b_name: 'Perceel',
      b_geometry: rectangle(),
      b_start: '2020-01-01',
      ...body,
    });

  it('creates a field with 201 and Location; b_area (ha, 2 decimals) and the centroid come from the geometry', async () => {
    const response = await post({
      b_name: 'Tarweperceel',
      b_geometry: rectangle(4.9985032, 51.9990785, 0.0029936, 0.001843),
      b_acquiring_method: 'owner',
    });
    expect(response.status).toBe(201);
    const field = (await response.json()) as Record<string, unknown>;
    expect(response.headers.get('location')).toBe(`/api/fields/${field.b_id}`);
    // The field of calc-cases.json case A: 4.2 ha on the sphere of @turf/area.
    expect(field).toMatchObject({
      b_name: 'Tarweperceel',
      b_area: 4.2,
      b_start: '2020-01-01',
      b_end: null,
      b_acquiring_method: 'owner',
      b_bufferstrip: false,
      b_id_farm: farmId,
    });
    const [lon, lat] = field.b_centroid as [number, number];
    expect(lon).toBeCloseTo(5, 6);
    expect(lat).toBeCloseTo(52, 6);
    const fetched = await call(t.app, user.key, 'GET', `/api/fields/${field.b_id}`);
    expect(await fetched.json()).toEqual(field);
  });

  it('keeps b_id_source, the identifier in the system a field came from: null unless sent, listed, changed by PATCH', async () => {
    const plain = await created<{ b_id_source: string | null }>(post({}));
    expect(plain.b_id_source).toBeNull();
    const field = await created<{ b_id: string; b_id_source: string }>(post({ b_id_source: 'RVO-1234' }));
    expect(field.b_id_source).toBe('RVO-1234');
    const list = (accept: string) => t.app.request(`/api/farms/${farmId}/fields?limit=200`, { headers: { 'x-api-key': user.key, accept } });
    const json = (await (await list('application/json')).json()) as { data: Array<{ b_id: string; b_id_source: string | null }> };
    expect(json.data.find((f) => f.b_id === field.b_id)?.b_id_source).toBe('RVO-1234');
    const geo = (await (await list('application/geo+json')).json()) as {
      features: Array<{ id: string; properties: { b_id_source: string } }>;
    };
    expect(geo.features.find((f) => f.id === field.b_id)?.properties.b_id_source).toBe('RVO-1234');
    const patched = await call(t.app, user.key, 'PATCH', `/api/fields/${field.b_id}`, { b_id_source: null });
    expect(((await patched.json()) as { b_id_source: string | null }).b_id_source).toBeNull();
    const tooLong = await expectProblem(await post({ b_id_source: 'x'.repeat(256) }), 400, 'validation-failed');
    expect(tooLong.errors).toEqual([{ field: 'b_id_source', message: 'must be at most 255 characters' }]);
    await expectProblem(await post({ b_id_source: '' }), 400, 'validation-failed');
  });

  it('refuses a b_area sent by the client (it is derived)', async () => {
    const body = await expectProblem(await post({ b_area: 100 }), 400, 'validation-failed');
    expect(body.errors).toEqual([{ field: 'b_area', message: 'is not a known property' }]);
  });

  it('weights the centroid of a MultiPolygon by area', async () => {
    const big = rectangle(5, 52, 0.01, 0.01).coordinates;
    const small = rectangle(5.3, 52, 0.001, 0.001).coordinates;
    const field = await created<{ b_centroid: [number, number]; b_area: number }>(
      post({ b_geometry: { type: 'MultiPolygon', coordinates: [big, small] } }),
    );
    expect(field.b_centroid[0]).toBeGreaterThan(5.005);
    expect(field.b_centroid[0]).toBeLessThan(5.01);
  });

  it('accepts exactly 10,000 coordinates, counted over all rings including holes', async () => {
    const response = await post({ b_geometry: squareWithHole(10_000 - 5) });
    expect(response.status).toBe(201);
  });

  it('refuses 10,001 coordinates with 422 unprocessable-entity, the extra one in a hole', async () => {
    const body = await expectProblem(await post({ b_geometry: squareWithHole(10_001 - 5) }), 422, 'unprocessable-entity');
    expect(body.detail).toContain('10001 coordinates');
  });

  it('refuses an outline across the antimeridian with 422 naming the edge; cut in two there, it is stored with its area', async () => {
    // A square of 0.002° whose edges, as GeoJSON draws them, run the long way round the earth.
    const across = {
      type: 'Polygon',
      coordinates: [
        [
          [179.999, 0],
          [-179.999, 0],
          [-179.999, 0.002],
          [179.999, 0.002],
          [179.999, 0],
        ],
      ],
    };
    const body = await expectProblem(await post({ b_geometry: across }), 422, 'unprocessable-entity');
    expect(body.errors).toEqual([{ field: 'b_geometry.coordinates.0.1', message: expect.stringContaining('antimeridian') as string }]);
    const cut = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [179.999, 0],
            [180, 0],
            [180, 0.002],
            [179.999, 0.002],
            [179.999, 0],
          ],
        ],
        [
          [
            [-180, 0],
            [-179.999, 0],
            [-179.999, 0.002],
            [-180, 0.002],
            [-180, 0],
          ],
        ],
      ],
    };
    const response = await post({ b_geometry: cut });
    expect(response.status).toBe(201);
    // 0.002° by 0.002° at the equator: some 222 m square.
    expect(((await response.json()) as { b_area: number }).b_area).toBeCloseTo(4.95, 1);
  });

  it('counts the coordinates before any other geometry check', async () => {
    const geometry = squareWithHole(10_001 - 5);
    (geometry.coordinates[0] as number[][])[0] = [500, 500];
    const body = await expectProblem(await post({ b_geometry: { ...geometry, type: 'Point' } }), 422, 'unprocessable-entity');
    expect(body.errors).toEqual([{ field: 'b_geometry.coordinates', message: expect.stringContaining('10001 coordinates') }]);
  });

  it.each([
    [
      'an open ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [5, 52],
            [5.01, 52],
            [5.01, 52.01],
            [5, 52.01],
          ],
        ],
      },
      'closed',
    ],
    [
      'a ring of 3 positions',
      {
        type: 'Polygon',
        coordinates: [
          [
            [5, 52],
            [5.01, 52],
            [5, 52],
          ],
        ],
      },
      'at least 4',
    ],
    [
      'a longitude of 181',
      {
        type: 'Polygon',
        coordinates: [
          [
            [181, 52],
            [5.01, 52],
            [5.01, 52.01],
            [181, 52],
          ],
        ],
      },
      'longitude',
    ],
    [
      'a latitude of -91',
      {
        type: 'Polygon',
        coordinates: [
          [
            [5, -91],
            [5.01, 52],
            [5.01, 52.01],
            [5, -91],
          ],
        ],
      },
      'latitude',
    ],
    [
      'a 3-D position',
      {
        type: 'Polygon',
        coordinates: [
          [
            [5, 52, 3],
            [5.01, 52, 3],
            [5.01, 52.01, 3],
            [5, 52, 3],
          ],
        ],
      },
      'two numbers',
    ],
    ['a Point', { type: 'Point', coordinates: [5, 52] }, 'Polygon or MultiPolygon'],
    ['an empty MultiPolygon', { type: 'MultiPolygon', coordinates: [] }, 'non-empty'],
    [
      'a bowtie',
      {
        type: 'Polygon',
        coordinates: [
          [
            [5, 52],
            [5.01, 52.01],
            [5.01, 52],
            [5, 52.01],
            [5, 52],
          ],
        ],
      },
      'must not cross or touch itself',
    ],
    [
      'a hole that crosses itself',
      {
        type: 'Polygon',
        coordinates: [
          squareWithHole(5).coordinates[0],
          [
            [5.002, 52.002],
            [5.004, 52.004],
            [5.004, 52.002],
            [5.002, 52.004],
            [5.002, 52.002],
          ],
        ],
      },
      'coordinates.1: a ring must not cross',
    ],
    [
      'a hole that crosses the outer ring',
      {
        type: 'Polygon',
        coordinates: [
          squareWithHole(5).coordinates[0],
          [
            [5.008, 52.008],
            [5.012, 52.008],
            [5.012, 52.012],
            [5.008, 52.012],
            [5.008, 52.008],
          ],
        ],
      },
      'coordinates.1: a hole must not cross the outer ring',
    ],
  ])('refuses %s with 422 and the reason', async (_, geometry, reason) => {
    const body = await expectProblem(await post({ b_geometry: geometry }), 422, 'unprocessable-entity');
    expect(body.detail).toContain(reason);
  });

  it('refuses a geometry that is not an object with coordinates with 400', async () => {
    await expectProblem(await post({ b_geometry: 'POLYGON((5 52))' }), 400, 'validation-failed');
    await expectProblem(await post({ b_geometry: { type: 'Polygon' } }), 400, 'validation-failed');
  });

  it("accepts SPEC's sample acquiring method owner and the reference codes; anything else is 400", async () => {
    for (const method of ['owner', 'lease', 'nl_01', 'nl_63', 'unknown'])
      expect((await post({ b_acquiring_method: method })).status).toBe(201);
    await expectProblem(await post({ b_acquiring_method: 'stolen' }), 400, 'validation-failed');
    expect(((await created(post({}))) as { b_acquiring_method: string }).b_acquiring_method).toBe('unknown');
  });

  it('requires b_end after b_start (422) and calendar dates (400)', async () => {
    await expectProblem(await post({ b_start: '2025-05-01', b_end: '2025-05-01' }), 422, 'unprocessable-entity');
    await expectProblem(await post({ b_start: '2025-02-30' }), 400, 'validation-failed');
    expect((await post({ b_start: '2024-02-29', b_end: '2025-01-01' })).status).toBe(201);
  });

  it('guesses b_bufferstrip when it is not sent, and keeps it when it is', async () => {
    expect(((await created(post({ b_name: 'Bufferstrook noord' }))) as { b_bufferstrip: boolean }).b_bufferstrip).toBe(true);
    // 0.0001° × 0.01°: about 7 m × 1.1 km, long and narrow, under 2.5 ha.
    expect(((await created(post({ b_geometry: rectangle(5, 52, 0.0001, 0.01) }))) as { b_bufferstrip: boolean }).b_bufferstrip).toBe(true);
    expect(((await created(post({ b_name: 'buffer', b_bufferstrip: false }))) as { b_bufferstrip: boolean }).b_bufferstrip).toBe(false);
  });

  it('changes any subset with PATCH; a new geometry recomputes the area', async () => {
    const field = await createField(t.app, user.key, farmId);
    const response = await call(t.app, user.key, 'PATCH', `/api/fields/${field.b_id}`, {
      b_geometry: rectangle(5, 52, 0.006, 0.002),
      b_name: 'Groter',
    });
    expect(response.status).toBe(200);
    const changed = (await response.json()) as { b_area: number; b_name: string; b_start: string };
    expect(changed.b_area).toBeCloseTo(field.b_area * 2, 1);
    expect(changed).toMatchObject({ b_name: 'Groter', b_start: '2020-01-01' });
  });

  it('refuses with 409 a PATCH whose b_end is not after the stored b_start', async () => {
    const field = await createField(t.app, user.key, farmId, { b_start: '2022-01-01' });
    await expectProblem(await call(t.app, user.key, 'PATCH', `/api/fields/${field.b_id}`, { b_end: '2021-12-31' }), 409, 'conflict');
    expect((await call(t.app, user.key, 'PATCH', `/api/fields/${field.b_id}`, { b_end: '2023-01-01' })).status).toBe(200);
  });

  it('lists the fields of a farm without geometry, in creation order, filtered by period overlap', async () => {
    const farm = (await createFarm(t.app, user.key)).b_id_farm;
    const early = await createField(t.app, user.key, farm, { b_start: '2019-01-01', b_end: '2020-06-30' });
    const running = await createField(t.app, user.key, farm, { b_start: '2021-01-01' });
    const late = await createField(t.app, user.key, farm, { b_start: '2026-01-01' });
    const list = async (query: string) => {
      const response = await call(t.app, user.key, 'GET', `/api/farms/${farm}/fields${query}`);
      expect(response.status).toBe(200);
      return (await response.json()) as { data: Array<Record<string, unknown>>; pagination: { total: number } };
    };
    const all = await list('');
    expect(all.data.map((f) => f.b_id)).toEqual([early.b_id, running.b_id, late.b_id]);
    expect(all.data[0]).not.toHaveProperty('b_geometry');
    expect(Object.keys(all.data[0]!)).toEqual(expect.arrayContaining(['b_id', 'b_name', 'b_area', 'b_start', 'b_acquiring_method']));
    expect((await list('?start=2020-06-30&end=2020-12-31')).data.map((f) => f.b_id)).toEqual([early.b_id]);
    expect((await list('?start=2020-07-01')).data.map((f) => f.b_id)).toEqual([running.b_id, late.b_id]);
    expect((await list('?end=2020-12-31')).data.map((f) => f.b_id)).toEqual([early.b_id]);
    const window = await list('?start=2025-01-01&end=2025-12-31');
    expect(window.data.map((f) => f.b_id)).toEqual([running.b_id]);
    expect(window.pagination.total).toBe(1);
    await expectProblem(
      await call(t.app, user.key, 'GET', `/api/farms/${farm}/fields?start=2025-12-31&end=2025-01-01`),
      422,
      'unprocessable-entity',
    );
    await expectProblem(await call(t.app, user.key, 'GET', `/api/farms/${farm}/fields?start=2025-13-01`), 400, 'validation-failed');
  });

  it('hard deletes a field with 204, then 404', async () => {
    const field = await createField(t.app, user.key, farmId);
    expect((await call(t.app, user.key, 'DELETE', `/api/fields/${field.b_id}`)).status).toBe(204);
    await expectProblem(await call(t.app, user.key, 'GET', `/api/fields/${field.b_id}`), 404, 'not-found');
    await expectProblem(await call(t.app, user.key, 'DELETE', `/api/fields/${field.b_id}`), 404, 'not-found');
  });

  it("answers 404 for another user's farm and field", async () => {
    const field = await createField(t.app, user.key, farmId);
    const stranger = await signUpWithKey(t.app);
    await expectProblem(await call(t.app, stranger.key, 'GET', `/api/farms/${farmId}/fields`), 404, 'not-found');
    await expectProblem(
      await call(t.app, stranger.key, 'POST', `/api/farms/${farmId}/fields`, {
        b_name: 'x',
        b_geometry: rectangle(),
        b_start: '2020-01-01',
      }),
      404,
      'not-found',
    );
    await expectProblem(await call(t.app, stranger.key, 'GET', `/api/fields/${field.b_id}`), 404, 'not-found');
    await expectProblem(await call(t.app, stranger.key, 'PATCH', `/api/fields/${field.b_id}`, { b_name: 'x' }), 404, 'not-found');
    await expectProblem(await call(t.app, stranger.key, 'DELETE', `/api/fields/${field.b_id}`), 404, 'not-found');
  });
});
