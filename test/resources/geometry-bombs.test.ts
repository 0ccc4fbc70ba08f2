// Geometries built to cost the server as much as possible while staying small on the wire: thousands
// of empty polygons or rings. Each is refused with one short 422 that names the first thing wrong,
// and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, type Account } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { rectangle } from '../helpers/fixtures.js';
import { startListeningApp, type ListeningApp } from '../helpers/listening.js';

/** A problem answer stays small whatever the request held. */
const MAX_ANSWER_BYTES = 4 * 1024;

const emptyPolygons = (count: number) => ({ type: 'MultiPolygon', coordinates: Array.from({ length: count }, () => [[]]) });
const square = rectangle().coordinates;

describe.each(storageKinds)('geometry bombs on %s', (kind) => {
  let server: ListeningApp;
  let user: Account;
  let farmId: string;
  beforeAll(async () => {
    server = await startListeningApp(kind);
    user = await signUpWithKey(server.app);
    farmId = (await createFarm(server.app, user.key)).b_id_farm;
  });
  afterAll(() => server?.close());

  const postField = (geometry: unknown) =>
    server.send(user.key, 'POST', `/api/farms/${farmId}/fields`, { b_name: 'Perceel', b_geometry: geometry, b_start: '2020-01-01' });

  it.each<[string, unknown, string]>([
    ['a MultiPolygon of 60,000 empty polygons', emptyPolygons(60_000), 'has 60000 polygons; at most 2500'],
    ['a Polygon of 100,000 empty rings', { type: 'Polygon', coordinates: Array.from({ length: 100_000 }, () => []) }, 'has 100000 rings'],
    [
      'a MultiPolygon of 2,000 polygons with two empty rings each',
      { type: 'MultiPolygon', coordinates: Array.from({ length: 2_000 }, () => [[], []]) },
      'has 4000 rings; at most 2500',
    ],
    ['a Polygon whose ring is empty', { type: 'Polygon', coordinates: [[]] }, 'coordinates.0: a ring must not be empty'],
    ['a MultiPolygon of 10 empty polygons', emptyPolygons(10), 'coordinates.0.0: a ring must not be empty'],
    [
      'a MultiPolygon with an empty polygon',
      { type: 'MultiPolygon', coordinates: [square, []] },
      'coordinates.1: a polygon must not be empty',
    ],
    ['a hole that is empty', { type: 'Polygon', coordinates: [...square, []] }, 'coordinates.1: a ring must not be empty'],
  ])('refuses %s with one short 422 naming the first problem', async (_, geometry, reason) => {
    const response = await postField(geometry);
    const text = await response.clone().text();
    const body = await expectProblem(response, 422, 'unprocessable-entity');
    expect(body.detail).toContain(reason);
    expect(body.errors).toHaveLength(1);
    expect(text.length).toBeLessThan(MAX_ANSWER_BYTES);
  });

  it('answers a MultiPolygon of 1,048,536 empty polygons (5 MiB) with a short 4xx, and /health meanwhile', async () => {
    const bomb = postField(emptyPolygons(1_048_536));
    const health = await fetch(`${server.url}/health`);
    const response = await bomb;
    const text = await response.text();
    expect(health.status).toBe(200);
    // The body's shape may be refused (400) before the geometry is looked at (422): either is the client's fault.
    expect([400, 422]).toContain(response.status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(text.length).toBeLessThan(MAX_ANSWER_BYTES);
  });

  it('stored none of them', async () => {
    const list = await call(server.app, user.key, 'GET', `/api/farms/${farmId}/fields`);
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
