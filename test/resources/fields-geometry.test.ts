// `?geometry=full|simplified|none` on the reads of fields: the GeoJSON list and the single read answer
// the geometry as stored, simplified within a bound of positions, or null; the ETag of a read is that of
// its answer; a GeoJSON page without geometry holds far more large fields.
import { getIssues } from '@placemarkio/check-geojson';
import turfArea from '@turf/area';
import kinks from '@turf/kinks';
import type { Polygon, MultiPolygon } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { storeLargeFields } from '../helpers/large-fields.js';
import { SIMPLIFIED_RING_POSITIONS } from '../../src/resources/fields/simplify.js';
import { circle, createField, rectangle } from '../helpers/fixtures.js';

type Geometry = Polygon | MultiPolygon;
interface FeatureCollection {
  features: Array<{ id: string; geometry: Geometry | null; properties: Record<string, unknown> }>;
  pagination: { limit: number; offset: number; total: number; next_offset: number | null; size_limited: boolean };
}
type Field = Record<string, unknown> & { b_id: string; b_geometry: Geometry | null };

const GEOJSON = 'application/geo+json';
const ringsOf = (geometry: Geometry) => (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates).flat();

/** A square with a square hole, and a circle of 2,000 positions beside it. */
const withHole = {
  type: 'MultiPolygon' as const,
  coordinates: [
    [
      [
        [6, 52],
        [6.01, 52],
        [6.01, 52.01],
        [6, 52.01],
        [6, 52],
      ],
      [
        [6.004, 52.004],
        [6.004, 52.006],
        [6.006, 52.006],
        [6.006, 52.004],
        [6.004, 52.004],
      ],
    ],
    circle(2_000, 6.1, 52, 0.005).coordinates,
  ],
};

describe.each(storageKinds)('geometry of fields on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  let ids: { small: string; round: string; holed: string };

  const get = (path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(t.app.request(path, { headers: { 'x-api-key': user.key, ...headers } }));
  const geoJson = async (farm: string, query: string) => {
    const response = await get(`/api/farms/${farm}/fields${query}`, { accept: GEOJSON });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(getIssues(text)).toEqual([]);
    return { collection: JSON.parse(text) as FeatureCollection, bytes: Buffer.byteLength(text) };
  };
  const field = async (id: string, query = '') => {
    const response = await get(`/api/fields/${id}${query}`);
    expect(response.status).toBe(200);
    return { field: (await response.json()) as Field, etag: response.headers.get('etag')! };
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    ids = {
      small: (await createField(t.app, user.key, farmId, { b_geometry: rectangle() })).b_id,
      round: (await createField(t.app, user.key, farmId, { b_geometry: circle(10_000) })).b_id,
      holed: (await createField(t.app, user.key, farmId, { b_geometry: withHole })).b_id,
    };
  });
  afterAll(() => t.close());

  it('answers no geometry with geometry=none: null in the Features and in the field, all else as without it', async () => {
    const { collection } = await geoJson(farmId, '?geometry=none');
    const full = (await geoJson(farmId, '')).collection;
    expect(collection.features.map((feature) => feature.geometry)).toEqual([null, null, null]);
    expect(collection.features.map(({ id, properties }) => ({ id, properties }))).toEqual(
      full.features.map(({ id, properties }) => ({ id, properties })),
    );
    expect(collection.pagination).toEqual(full.pagination);
    for (const id of Object.values(ids)) {
      const none = (await field(id, '?geometry=none')).field;
      expect(none.b_geometry).toBeNull();
      expect(none).toEqual({ ...(await field(id)).field, b_geometry: null });
    }
  });

  it('answers geometry=simplified as valid closed polygons of at most the bound of positions a ring, a small field unchanged', async () => {
    const { collection } = await geoJson(farmId, '?geometry=simplified');
    const full = (await geoJson(farmId, '')).collection;
    expect(collection.features.map((feature) => feature.id)).toEqual([ids.small, ids.round, ids.holed]);
    for (const [i, feature] of collection.features.entries()) {
      const geometry = feature.geometry!;
      const stored = full.features[i]!.geometry!;
      expect(geometry.type).toBe(stored.type);
      expect(ringsOf(geometry)).toHaveLength(ringsOf(stored).length);
      for (const ring of ringsOf(geometry)) {
        expect(ring.length).toBeGreaterThanOrEqual(4);
        expect(ring.length).toBeLessThanOrEqual(SIMPLIFIED_RING_POSITIONS);
        expect(ring.at(-1)).toEqual(ring[0]);
      }
      expect(kinks(geometry).features).toEqual([]);
      expect(Math.abs(turfArea(geometry) - turfArea(stored)) / turfArea(stored)).toBeLessThan(0.001);
    }
    expect(collection.features[0]!.geometry).toEqual(rectangle());
    expect(ringsOf(full.features[1]!.geometry!)[0]).toHaveLength(10_000);
    // The single read answers the same simplification, its rings as they were sent.
    expect((await field(ids.round, '?geometry=simplified')).field.b_geometry).toEqual(collection.features[1]!.geometry);
    expect((await field(ids.small, '?geometry=simplified')).field.b_geometry).toEqual(rectangle());
  });

  it('simplifies again, as finely as the bound allows, rings that the tolerance would make cross', async () => {
    // A hole 5e-6° (under a metre) inside the outer ring all round: simplified within 1 m, they would cross.
    const outer = circle(1_000, 5, 52, 0.001).coordinates[0]!;
    const hole = [...circle(1_000, 5, 52, 0.001 - 5e-6).coordinates[0]!].reverse();
    const farm = (await createFarm(t.app, user.key)).b_id_farm;
    const { b_id } = await createField(t.app, user.key, farm, { b_geometry: { type: 'Polygon', coordinates: [outer, hole] } });
    const simplified = (await field(b_id, '?geometry=simplified')).field.b_geometry!;
    expect(ringsOf(simplified).map((ring) => ring.length)).toEqual([SIMPLIFIED_RING_POSITIONS, SIMPLIFIED_RING_POSITIONS]);
    expect(kinks(simplified).features).toEqual([]);
  });

  it('takes geometry=full as the default, and leaves the JSON list, which has no geometry, as it is', async () => {
    expect((await geoJson(farmId, '?geometry=full')).collection).toEqual((await geoJson(farmId, '')).collection);
    expect((await field(ids.round, '?geometry=full')).field).toEqual((await field(ids.round)).field);
    const list = await (await get(`/api/farms/${farmId}/fields`)).json();
    for (const variant of ['full', 'simplified', 'none']) {
      expect(await (await get(`/api/farms/${farmId}/fields?geometry=${variant}`)).json()).toEqual(list);
    }
  });

  it('refuses any other value with 400, naming the parameter', async () => {
    for (const query of ['?geometry=simple', '?geometry=', '?geometry=NONE']) {
      for (const response of [
        await get(`/api/farms/${farmId}/fields${query}`, { accept: GEOJSON }),
        await get(`/api/farms/${farmId}/fields${query}`),
        await get(`/api/fields/${ids.round}${query}`),
      ]) {
        const body = (await response.clone().json()) as { errors: Array<{ field: string }> };
        await expectProblem(response, 400, 'validation-failed');
        expect(body.errors.map((error) => error.field)).toEqual(['geometry']);
      }
    }
  });

  it('tags each answer of a read: the tags differ where the answers do, and If-None-Match is 304 for its own', async () => {
    const tags = {
      full: (await field(ids.round)).etag,
      simplified: (await field(ids.round, '?geometry=simplified')).etag,
      none: (await field(ids.round, '?geometry=none')).etag,
    };
    expect(new Set(Object.values(tags)).size).toBe(3);
    for (const [variant, tag] of Object.entries(tags)) {
      const notModified = await get(`/api/fields/${ids.round}?geometry=${variant}`, { 'if-none-match': tag });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('etag')).toBe(tag);
      const others = Object.values(tags).filter((other) => other !== tag);
      const changed = await get(`/api/fields/${ids.round}?geometry=${variant}`, { 'if-none-match': others.join(', ') });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).toBe(tag);
    }
    // A small field simplified is the same answer as stored, with the same tag.
    expect((await field(ids.small, '?geometry=simplified')).etag).toBe((await field(ids.small)).etag);
  });

  it('takes in If-Match the tag of the field as stored, not of an answer without its geometry', async () => {
    const patch = (tag: string) =>
      t.app.request(`/api/fields/${ids.small}`, {
        method: 'PATCH',
        headers: { 'x-api-key': user.key, 'content-type': 'application/json', 'if-match': tag },
        body: JSON.stringify({ b_name: 'Nieuw' }),
      });
    await expectProblem(await patch((await field(ids.small, '?geometry=none')).etag), 412, 'precondition-failed');
    expect((await patch((await field(ids.small)).etag)).status).toBe(200);
  });

  it('fits far more large fields on a GeoJSON page without geometry or simplified, each counted as answered', async () => {
    const farm = (await createFarm(t.app, user.key)).b_id_farm;
    // A page of all twelve is over 4 MiB.
    await storeLargeFields(t.database.db, farm, 12);
    const full = (await geoJson(farm, '?limit=200')).collection;
    expect(full.pagination.size_limited).toBe(true);
    expect(full.features.length).toBeLessThan(12);
    const none = await geoJson(farm, '?limit=200&geometry=none');
    expect(none.collection.features).toHaveLength(12);
    expect(none.collection.pagination).toEqual({ limit: 200, offset: 0, total: 12, next_offset: null, size_limited: false });
    expect(none.bytes).toBeLessThan(12 * 1024);
    const simplified = await geoJson(farm, '?limit=200&geometry=simplified');
    expect(simplified.collection.features).toHaveLength(12);
    expect(simplified.collection.pagination).toEqual(none.collection.pagination);
  });

  it('documents the parameter on the list and the read, with its values and bound', async () => {
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
      paths: Record<
        string,
        { get: { parameters: Array<{ name: string; in: string; description?: string; schema: { enum?: string[] } }> } }
      >;
    };
    for (const path of ['/api/farms/{b_id_farm}/fields', '/api/fields/{b_id}']) {
      const parameter = doc.paths[path]!.get.parameters.find((p) => p.name === 'geometry' && p.in === 'query');
      expect(parameter?.schema.enum).toEqual(['full', 'simplified', 'none']);
      expect(JSON.stringify(parameter)).toContain(`at most ${SIMPLIFIED_RING_POSITIONS} positions a ring`);
    }
  });
});
