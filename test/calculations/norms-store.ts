// The records of a case of test/fixtures/norms-cases.json stored through the public API as a client would.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { call, type TestApp } from '../helpers/app.js';
import { created } from '../helpers/fixtures.js';
import type { CaseIds } from './case-ids.js';
import type { NormsCase } from './norms-compare.js';

type Json = Record<string, any>;

export const normsCases = (
  JSON.parse(readFileSync(new URL('../fixtures/norms-cases.json', import.meta.url), 'utf8')) as { cases: NormsCase[] }
).cases;

/** `ids` learns the identifier Akker gave each record of the case. */
export async function storeNormsCase(t: TestApp, key: string, records: Json, ids: CaseIds) {
  const send = async (method: string, path: string, body: Json | undefined, status: number) => {
    const response = await call(t.app, key, method, path, body);
    if (response.status !== status) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Json;
  };
  const post = <T = Json>(path: string, body: Json) => created<T>(call(t.app, key, 'POST', path, body));
  const { b_id_farm, ...farm } = records.farm;
  const farmId = (await post<{ b_id_farm: string }>('/api/farms', farm)).b_id_farm;
  ids.set(b_id_farm, farmId);
  for (const { b_derogation_year } of records.derogations)
    await send('PUT', `/api/farms/${farmId}/derogations/${b_derogation_year}`, undefined, 201);
  for (const { b_grazing_intention_year, b_grazing_intention } of records.grazing_intentions) {
    await send('PUT', `/api/farms/${farmId}/grazing-intentions/${b_grazing_intention_year}`, { b_grazing_intention }, 201);
  }
  for (const certification of records.organic_certifications) await post(`/api/farms/${farmId}/organic-certifications`, certification);
  for (const { b_id, b_area, b_centroid, ...field } of records.fields) {
    const stored = await post<{ b_id: string; b_area: number }>(`/api/farms/${farmId}/fields`, field);
    expect(stored.b_area).toBe(b_area);
    ids.set(b_id, stored.b_id);
  }
  for (const { p_id, ...fertilizer } of records.fertilizers) {
    ids.set(p_id, (await post<{ p_id: string }>(`/api/farms/${farmId}/fertilizers`, fertilizer)).p_id);
  }
  for (const { b_lu, b_id, ...cultivation } of records.cultivations) {
    ids.set(b_lu, (await post<{ b_lu: string }>(`/api/fields/${ids.get(b_id)}/cultivations`, cultivation)).b_lu);
  }
  for (const { a_id, b_id, ...analysis } of records.soil_analyses) {
    ids.set(a_id, (await post<{ a_id: string }>(`/api/fields/${ids.get(b_id)}/soil-analyses`, analysis)).a_id);
  }
  for (const { p_app_id, b_id, p_id, ...application } of records.fertilizer_applications) {
    const body = { ...application, p_id: ids.get(p_id) };
    ids.set(p_app_id, (await post<{ p_app_id: string }>(`/api/fields/${ids.get(b_id)}/fertilizer-applications`, body)).p_app_id);
  }
}
