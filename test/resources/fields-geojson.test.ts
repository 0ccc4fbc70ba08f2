// A farm's fields as GeoJSON: the list with Accept: application/geo+json is an RFC 7946 FeatureCollection
// of the same page (ids, properties, paging, filters) with each field's geometry; Accept is negotiated by
// q-value, and JSON stays the default.
import { getIssues } from '@placemarkio/check-geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { MAX_FEATURES_BYTES } from '../../src/resources/fields/page-bytes.js';
import { storeLargeFields } from '../helpers/large-fields.js';
import { createField, rectangle } from '../helpers/fixtures.js';

interface FeatureCollection {
  type: string;
  features: Array<{ type: string; id: string; geometry: { type: string; coordinates: unknown[] }; properties: Record<string, unknown> }>;
  pagination: { limit: number; offset: number; total: number; next_offset: number | null; size_limited: boolean };
}
interface FieldPage {
  data: Array<Record<string, unknown> & { b_id: string }>;
  pagination: { limit: number; offset: number; total: number };
}

/** Twice the signed planar area of a ring: positive when it runs counterclockwise. */
const signedArea = (ring: number[][]) => ring.slice(1).reduce((sum, [x2, y2], i) => sum + ring[i]![0]! * y2! - x2! * ring[i]![1]!, 0);

describe.each(storageKinds)('fields as GeoJSON on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  const fieldIds: string[] = [];

  const get = (path: string, accept?: string) =>
    Promise.resolve(t.app.request(path, { headers: { 'x-api-key': user.key, ...(accept === undefined ? {} : { accept }) } }));
  const geoJson = async (query = '') => {
    const response = await get(`/api/farms/${farmId}/fields${query}`, 'application/geo+json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/geo+json');
    const text = await response.text();
    expect(getIssues(text)).toEqual([]);
    return JSON.parse(text) as FeatureCollection;
  };
  const jsonList = async (query = '') => (await (await get(`/api/farms/${farmId}/fields${query}`)).json()) as FieldPage;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    // Five fields, the 2nd to 4th of them on the farm in 2021, in creation order.
    const periods = [
      ['2019-01-01', '2019-12-31'],
      ['2020-01-01', null],
      ['2021-03-01', '2021-09-30'],
      ['2018-01-01', '2021-01-01'],
      ['2023-01-01', null],
    ] as const;
    for (const [i, [b_start, b_end]] of periods.entries()) {
      fieldIds.push((await createField(t.app, user.key, farmId, { b_geometry: rectangle(5 + i * 0.01), b_start, b_end })).b_id);
    }
  });
  afterAll(() => t.close());

  it('answers a FeatureCollection with the ids, properties and geometries of the JSON list, validated against RFC 7946', async () => {
    const collection = await geoJson();
    const list = await jsonList();
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features.map((f) => f.id)).toEqual(fieldIds);
    expect(collection.features.map((f) => f.properties)).toEqual(list.data);
    for (const [i, feature] of collection.features.entries()) {
      expect(feature.type).toBe('Feature');
      const field = (await (await get(`/api/fields/${fieldIds[i]}`)).json()) as { b_geometry: unknown };
      expect(feature.geometry).toEqual(field.b_geometry);
    }
    expect(collection.pagination).toEqual({ ...list.pagination, next_offset: null, size_limited: false });
  });

  it('pages as the JSON list does, with its pagination as a member of the collection', async () => {
    const collection = await geoJson('?limit=2&offset=1');
    expect(collection.features.map((f) => f.id)).toEqual(fieldIds.slice(1, 3));
    expect(collection.pagination).toEqual({ limit: 2, offset: 1, total: 5, next_offset: 3, size_limited: false });
    expect(collection.pagination).toMatchObject((await jsonList('?limit=2&offset=1')).pagination);
    const beyond = await geoJson('?offset=10');
    expect(beyond.features).toEqual([]);
    expect(beyond.pagination).toEqual({ limit: 50, offset: 10, total: 5, next_offset: null, size_limited: false });
  });

  it('filters by period as the JSON list does', async () => {
    const collection = await geoJson('?start=2021-01-01&end=2021-12-31');
    expect(collection.features.map((f) => f.id)).toEqual([fieldIds[1], fieldIds[2], fieldIds[3]]);
    expect(collection.features.map((f) => f.id)).toEqual((await jsonList('?start=2021-01-01&end=2021-12-31')).data.map((f) => f.b_id));
    expect(collection.pagination.total).toBe(3);
  });

  it('keeps the page bound of the list (at most 200) and its errors, as problem+json', async () => {
    const accept = 'application/geo+json';
    await expectProblem(await get(`/api/farms/${farmId}/fields?limit=201`, accept), 400, 'validation-failed');
    await expectProblem(await get(`/api/farms/${farmId}/fields?start=2021-12-31&end=2021-01-01`, accept), 422, 'unprocessable-entity');
    await expectProblem(await get(`/api/farms/AAAAAAAAAAAAAAAAAAAAAA/fields`, accept), 404, 'not-found');
    const stranger = await signUpWithKey(t.app);
    const response = await t.app.request(`/api/farms/${farmId}/fields`, { headers: { 'x-api-key': stranger.key, accept } });
    await expectProblem(response, 404, 'not-found');
  });

  it('stops a page of large fields before its features pass 4 MiB, says so, and goes on from next_offset', async () => {
    const farm = (await createFarm(t.app, user.key)).b_id_farm;
    // No page of 200 holds all twelve.
    const big = await storeLargeFields(t.database.db, farm, 12);
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const response = await get(`/api/farms/${farm}/fields?limit=200&offset=${offset}`, 'application/geo+json');
      const text = await response.text();
      const { features, pagination } = JSON.parse(text) as FeatureCollection;
      expect(Buffer.byteLength(text)).toBeLessThan(MAX_FEATURES_BYTES + 1024);
      expect(features.length).toBeGreaterThan(1);
      expect(pagination.next_offset).toBe(offset + features.length < 12 ? offset + features.length : null);
      expect(pagination.size_limited).toBe(pagination.next_offset !== null);
      seen.push(...features.map((feature) => feature.id));
      offset = pagination.next_offset;
    }
    expect(seen).toEqual(big);
    // The JSON list has no geometry, and keeps its pages by count alone.
    const json = (await (await get(`/api/farms/${farm}/fields?limit=200`)).json()) as FieldPage;
    expect(json.data.map((field) => field.b_id)).toEqual(big);
    const small = JSON.parse(await (await get(`/api/farms/${farm}/fields?limit=3`, 'application/geo+json')).text()) as FeatureCollection;
    expect(small.features.map((feature) => feature.id)).toEqual(big.slice(0, 3));
    expect(small.pagination).toEqual({ limit: 3, offset: 0, total: 12, next_offset: 3, size_limited: false });
  });

  it('writes rings by the right-hand rule: an outer ring sent clockwise and a hole sent counterclockwise come back reversed', async () => {
    const clockwise = [
      [6, 52],
      [6, 52.01],
      [6.01, 52.01],
      [6.01, 52],
      [6, 52],
    ];
    const counterclockwiseHole = [
      [6.004, 52.004],
      [6.006, 52.004],
      [6.006, 52.006],
      [6.004, 52.006],
      [6.004, 52.004],
    ];
    const farm = (await createFarm(t.app, user.key)).b_id_farm;
    const sent = { type: 'MultiPolygon', coordinates: [[clockwise, counterclockwiseHole], rectangle(6.1).coordinates] };
    await createField(t.app, user.key, farm, { b_geometry: sent });
    const response = await get(`/api/farms/${farm}/fields`, 'application/geo+json');
    const text = await response.text();
    expect(getIssues(text)).toEqual([]);
    const [feature] = (JSON.parse(text) as FeatureCollection).features;
    const polygons = feature!.geometry.coordinates as number[][][][];
    expect(polygons).toEqual([[[...clockwise].reverse(), [...counterclockwiseHole].reverse()], rectangle(6.1).coordinates]);
    expect(signedArea(polygons[0]![0]!)).toBeGreaterThan(0);
    expect(signedArea(polygons[0]![1]!)).toBeLessThan(0);
  });

  it('documents both media types of the list in the OpenAPI document', async () => {
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } }>;
    };
    const content = doc.paths['/api/farms/{b_id_farm}/fields']!.get.responses['200']!.content;
    expect(Object.keys(content)).toEqual(['application/json', 'application/geo+json']);
    expect(content['application/geo+json']!.schema.$ref).toBe('#/components/schemas/FieldFeatureCollection');
  });
});

// Negotiation reads no stored data: one database is enough.
describe('Accept on the field list', () => {
  let t: TestApp;
  let user: Account;
  let farmId: string;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    user = await signUpWithKey(t.app);
    farmId = (await createFarm(t.app, user.key)).b_id_farm;
    await createField(t.app, user.key, farmId);
  });
  afterAll(() => t.close());

  it.each([
    ['no Accept', undefined, 'application/json'],
    ['application/geo+json', 'application/geo+json', 'application/geo+json'],
    ['a higher q for GeoJSON', 'application/json;q=0.5, application/geo+json', 'application/geo+json'],
    ['a higher q for JSON', 'application/geo+json;q=0.8, application/json', 'application/json'],
    ['a q above the wildcard', 'application/geo+json;q=0.9, */*;q=0.1', 'application/geo+json'],
    ['the wildcard above GeoJSON', 'application/geo+json;q=0.5, */*', 'application/json'],
    ['JSON refused, application/* allowed', 'application/json;q=0, application/*', 'application/geo+json'],
    ['an equal q, GeoJSON listed first', 'application/geo+json, application/json', 'application/geo+json'],
    ['an equal q, JSON listed first', 'application/json, application/geo+json', 'application/json'],
    ['a tie of one wildcard', '*/*', 'application/json'],
    ['upper case and spaces', ' Application/GEO+JSON ; Q=1 ', 'application/geo+json'],
    ['GeoJSON refused', 'application/geo+json;q=0', 'application/json'],
    ['neither allowed', 'text/html', 'application/json'],
    ['both refused', 'application/json;q=0, application/geo+json;q=0', 'application/json'],
    ['a malformed q, ignored', 'application/geo+json;q=2', 'application/json'],
    ['a malformed range, ignored', 'geo+json, application/geo+json;q=0.5, application/json;q=0.4', 'application/geo+json'],
  ])('negotiates by q-value: %s → %s', async (_name, accept, expected) => {
    const headers = { 'x-api-key': user.key, ...(accept === undefined ? {} : { accept }) };
    const response = await t.app.request(`/api/farms/${farmId}/fields`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(expected);
    expect(response.headers.get('vary')).toBe('Accept');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(expected === 'application/json' ? ['data', 'pagination'] : ['type', 'features', 'pagination']);
  });
});
