// GET /api/fields/{b_id}/current-soil-data: the newest value of each parameter by sampling date (undated
// analyses last, on equal dates the later-recorded analysis), with the analysis it comes from; ETag and 304;
// 404 for a field the caller cannot read; the general rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createFarm, expectProblem, signUpWithKey, startTestApp, type Account, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';
import { created, createField } from '../helpers/fixtures.js';

type Json = Record<string, any>;

describe.each(storageKinds)('current soil data on %s', (kind) => {
  let t: TestApp;
  let user: Account;
  let fieldId: string;
  const analyses: Record<string, string> = {};
  const path = () => `/api/fields/${fieldId}/current-soil-data`;
  const addAnalysis = async (name: string, body: Json) => {
    analyses[name] = (await created<{ a_id: string }>(call(t.app, user.key, 'POST', `/api/fields/${fieldId}/soil-analyses`, body))).a_id;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await signUpWithKey(t.app);
    fieldId = (await createField(t.app, user.key, (await createFarm(t.app, user.key)).b_id_farm)).b_id;
    // In the order they are recorded: `later` shares its sampling date with `june` and is recorded after it.
    await addAnalysis('march', {
      b_sampling_date: '2025-03-01',
      a_source: 'lab A',
      a_depth_lower: 30,
      a_som_loi: 3,
      b_soiltype_agr: 'dekzand',
    });
    await addAnalysis('june', { b_sampling_date: '2025-06-01', a_depth_lower: 30, a_som_loi: 4, a_p_al: 30 });
    await addAnalysis('undated', { a_depth_upper: 10, a_som_loi: 9, a_c_of: 20, b_gwl_class: 'V' });
    await addAnalysis('later', { b_sampling_date: '2025-06-01', a_depth_lower: 25, a_p_al: 40, a_ph_cc: 5.5 });
    await addAnalysis('old', { b_sampling_date: '2020-01-01', a_k_cc: 0, a_p_al: 50 });
  });
  afterAll(() => t.close());

  const from = (name: string, parameter: string, value: number | string) => ({ parameter, value, a_id: analyses[name] });

  it('gives each parameter its newest value and the analysis it comes from, in the order of the soil parameters', async () => {
    const response = await call(t.app, user.key, 'GET', path());
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"general";/);
    const answer = (await response.json()) as Json;
    expect(answer.b_id).toBe(fieldId);
    expect(answer.data.map((v: Json) => ({ parameter: v.parameter, value: v.value, a_id: v.a_id }))).toEqual([
      from('undated', 'a_c_of', 20),
      from('old', 'a_k_cc', 0),
      from('later', 'a_p_al', 40),
      from('later', 'a_ph_cc', 5.5),
      from('june', 'a_som_loi', 4),
      from('march', 'b_soiltype_agr', 'dekzand'),
      from('undated', 'b_gwl_class', 'V'),
    ]);
    expect(answer.data[0]).toEqual({
      parameter: 'a_c_of',
      value: 20,
      a_id: analyses.undated,
      b_sampling_date: null,
      a_depth_upper: 10,
      a_depth_lower: null,
      a_source: 'other',
    });
    expect(answer.data.find((v: Json) => v.parameter === 'b_soiltype_agr')).toMatchObject({
      b_sampling_date: '2025-03-01',
      a_depth_upper: 0,
      a_depth_lower: 30,
      a_source: 'lab A',
    });
  });

  it('answers 304 to the ETag it gave until an analysis changes', async () => {
    const first = await call(t.app, user.key, 'GET', path());
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const request = () => t.app.request(path(), { headers: { 'x-api-key': user.key, 'if-none-match': etag } });
    const unchanged = await request();
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    const patched = await call(t.app, user.key, 'PATCH', `/api/soil-analyses/${analyses.june}`, { a_som_loi: 4.5 });
    expect(patched.status).toBe(200);
    const changed = await request();
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as Json).data).toContainEqual(expect.objectContaining(from('june', 'a_som_loi', 4.5)));
  });

  it('answers an empty list for a field without analyses', async () => {
    const empty = await createField(t.app, user.key, (await createFarm(t.app, user.key)).b_id_farm);
    const response = await call(t.app, user.key, 'GET', `/api/fields/${empty.b_id}/current-soil-data`);
    expect(await response.json()).toEqual({ b_id: empty.b_id, data: [] });
  });

  it('answers 404 for an unknown field and for a field of another user', async () => {
    await expectProblem(await call(t.app, user.key, 'GET', '/api/fields/no-such-field/current-soil-data'), 404, 'not-found');
    const stranger = await signUpWithKey(t.app);
    await expectProblem(await call(t.app, stranger.key, 'GET', path()), 404, 'not-found');
  });
});
