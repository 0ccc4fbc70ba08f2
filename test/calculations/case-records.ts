// Reference cases (test/fixtures/*-cases.json) stored through the public API as a client would, and their
// answers compared with the reference's: the records, the identifiers, and how lists and failed fields compare.
import { expect } from 'vitest';
import { call, type TestApp } from '../helpers/app.js';
import { created } from '../helpers/fixtures.js';
import type { CaseIds } from './case-ids.js';

export type Json = Record<string, any>;

/** Stores a case's records through the API as a client would, and notes the identifiers Akker gave them. */
export async function storeCaseRecords(t: TestApp, key: string, records: Json, ids: CaseIds) {
  const post = <T = Json>(path: string, body: Json) => created<T>(call(t.app, key, 'POST', path, body));
  const { b_id_farm, ...farm } = records.farm;
  ids.set(b_id_farm, (await post<{ b_id_farm: string }>('/api/farms', farm)).b_id_farm);
  for (const { b_id, b_area, b_centroid, ...field } of records.fields) {
    const stored = await post<{ b_id: string; b_area: number }>(`/api/farms/${ids.get(b_id_farm)}/fields`, field);
    expect(stored.b_area).toBe(b_area);
    ids.set(b_id, stored.b_id);
  }
  for (const { p_id, ...fertilizer } of records.fertilizers) {
    ids.set(p_id, (await post<{ p_id: string }>(`/api/farms/${ids.get(b_id_farm)}/fertilizers`, fertilizer)).p_id);
  }
  for (const { b_lu, b_id, ...cultivation } of records.cultivations) {
    ids.set(b_lu, (await post<{ b_lu: string }>(`/api/fields/${ids.get(b_id)}/cultivations`, cultivation)).b_lu);
    const harvests = (await (await call(t.app, key, 'GET', `/api/cultivations/${ids.get(b_lu)}/harvests`)).json()) as {
      data: Array<{ b_id_harvesting: string }>;
    };
    if (harvests.data.length === 1) ids.set(`auto-${b_lu}`, harvests.data[0]!.b_id_harvesting);
  }
  for (const { b_id_harvesting, b_lu, ...harvest } of records.harvests) {
    ids.set(
      b_id_harvesting,
      (await post<{ b_id_harvesting: string }>(`/api/cultivations/${ids.get(b_lu)}/harvests`, harvest)).b_id_harvesting,
    );
  }
  for (const { a_id, b_id, ...analysis } of records.soil_analyses) {
    ids.set(a_id, (await post<{ a_id: string }>(`/api/fields/${ids.get(b_id)}/soil-analyses`, analysis)).a_id);
  }
  for (const { p_app_id, b_id, p_id, ...application } of records.fertilizer_applications) {
    ids.set(
      p_app_id,
      (await post<{ p_app_id: string }>(`/api/fields/${ids.get(b_id)}/fertilizer-applications`, { ...application, p_id: ids.get(p_id) }))
        .p_app_id,
    );
  }
}

/** Lists whose order is not significant, sorted by their identifier. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(normalise);
    const key = (item: any) => String(item?.id ?? item?.b_id ?? item?.year ?? JSON.stringify(item));
    return items.sort((a, b) => key(a).localeCompare(key(b)));
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

/** A failed field: the reference's message, then Akker's hint on how to fix it. */
export const failedField = (expected: Json) => ({
  ...expected,
  balance: null,
  errorMessage: expect.stringMatching(new RegExp(`^${escape(expected.errorMessage)}\\. \\S`)),
});
export const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
