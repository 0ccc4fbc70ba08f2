// The records of a case of test/fixtures/norms-cases.json stored through the public API as a client would, or
// taken as the norms' inputs directly.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { amountInKgPerHa, findFertilizer } from '../../src/catalogues/fertilizers.js';
import type { NormsFarm, NormsField } from '../../src/calculations/norms/inputs.js';
import type { FarmProduct } from '../../src/calculations/norms/product-room.js';
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

/** The case's farm and one of its fields as the norms read them, amounts converted as the store converts them. */
export function caseNormsInputs(records: Json, b_id: string): { field: NormsField; farm: NormsFarm; products: FarmProduct[] } {
  const productOf = new Map<string, string>(records.fertilizers.map((f: Json) => [f.p_id, f.p_id_catalogue]));
  const { b_centroid, b_geometry, b_name, b_acquiring_method, ...field } = records.fields.find((f: Json) => f.b_id === b_id);
  const ofField = (list: Json[]) => list.filter((r) => r.b_id === b_id);
  return {
    farm: {
      derogationYears: records.derogations.map((d: Json) => d.b_derogation_year),
      grazingIntentions: records.grazing_intentions.map((g: Json) => ({
        year: g.b_grazing_intention_year,
        b_grazing_intention: g.b_grazing_intention,
      })),
      organicCertifications: records.organic_certifications,
    },
    field: {
      ...field,
      cultivations: ofField(records.cultivations).map(({ b_lu, b_lu_catalogue, b_lu_start, b_lu_end, b_lu_variety }) => ({
        b_lu,
        b_lu_catalogue,
        b_lu_start,
        b_lu_end,
        b_lu_variety,
      })),
      // The most recently recorded first.
      soilAnalyses: ofField(records.soil_analyses)
        .map(({ b_sampling_date, a_p_cc, a_p_al }) => ({ b_sampling_date, a_p_cc: a_p_cc ?? null, a_p_al: a_p_al ?? null }))
        .reverse(),
      applications: ofField(records.fertilizer_applications).map((a) => {
        const fertilizer = findFertilizer(productOf.get(a.p_id)!)!;
        const p_app_amount = amountInKgPerHa(a.p_app_amount_display, fertilizer.p_app_amount_unit, fertilizer.p_density)!;
        return { p_app_id: a.p_app_id, p_app_date: a.p_app_date, p_app_amount, p_id_catalogue: fertilizer.p_id_catalogue, fertilizer };
      }),
    },
    products: records.fertilizers.map((f: Json) => ({
      p_id: f.p_id,
      p_id_catalogue: f.p_id_catalogue,
      fertilizer: findFertilizer(f.p_id_catalogue)!,
    })),
  };
}
