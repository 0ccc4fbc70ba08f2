// Records created through the API, as a client would, for the resource tests.
import type { App } from '../../src/app/app.js';
import { call } from './app.js';

/** A rectangle of `widthDeg` × `heightDeg` degrees with its south-west corner at (lon, lat). */
export const rectangle = (lon = 5, lat = 52, widthDeg = 0.003, heightDeg = 0.002) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [lon, lat],
      [lon + widthDeg, lat],
      [lon + widthDeg, lat + heightDeg],
      [lon, lat + heightDeg],
      [lon, lat],
    ],
  ],
});

/** A Polygon of `positions` positions on a circle (the first repeated as the last): 10,000, the most a field may have, take some 380 KB of JSON. */
export function circle(positions: number, lon = 5.5, lat = 52, radius = 0.01) {
  const ring: number[][] = [];
  for (let i = 0; i < positions - 1; i++) {
    const angle = (2 * Math.PI * i) / (positions - 1);
    ring.push([lon + radius * Math.cos(angle), lat + radius * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  return { type: 'Polygon' as const, coordinates: [ring] };
}

export async function created<T = Record<string, unknown>>(response: Response | Promise<Response>): Promise<T> {
  const r = await response;
  if (r.status !== 201) throw new Error(`expected 201, got ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

export const createField = (app: App, key: string, farmId: string, body: Record<string, unknown> = {}) =>
  created<{ b_id: string; b_area: number }>(
    call(app, key, 'POST', `/api/farms/${farmId}/fields`, { b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01', ...body }),
  );

// Cultivations, harvests, soil analyses and fertilizers (added for the resource tests of those).

export interface CultivationBody {
  b_lu: string;
  b_id: string;
  b_lu_catalogue: string;
  b_lu_start: string;
  b_lu_end: string | null;
  b_lu_harvestable: string;
  [column: string]: unknown;
}

export interface HarvestBody {
  b_id_harvesting: string;
  b_lu: string;
  b_lu_harvest_date: string;
  b_lu_yield: number | null;
  b_lu_n_harvestable: number | null;
  [column: string]: unknown;
}

export interface ApplicationBody {
  p_app_id: string;
  b_id: string;
  p_id: string;
  p_app_amount: number;
  p_app_amount_display: number;
  p_app_amount_unit: string;
  p_app_method: string | null;
  p_app_date: string;
  [column: string]: unknown;
}

export const createCultivation = (app: App, key: string, fieldId: string, body: Record<string, unknown> = {}) =>
  created<CultivationBody>(
    call(app, key, 'POST', `/api/fields/${fieldId}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-03-01', ...body }),
  );

export const createHarvest = (app: App, key: string, cultivationId: string, body: Record<string, unknown>) =>
  created<HarvestBody>(call(app, key, 'POST', `/api/cultivations/${cultivationId}/harvests`, body));

export const createSoilAnalysis = (app: App, key: string, fieldId: string, body: Record<string, unknown> = {}) =>
  created<{ a_id: string; b_id: string; [column: string]: unknown }>(call(app, key, 'POST', `/api/fields/${fieldId}/soil-analyses`, body));

export const acquireFertilizer = (app: App, key: string, farmId: string, p_id_catalogue = 'BAAT050') =>
  created<{ p_id: string; p_id_catalogue: string; [column: string]: unknown }>(
    call(app, key, 'POST', `/api/farms/${farmId}/fertilizers`, { p_id_catalogue }),
  );

export const createApplication = (app: App, key: string, fieldId: string, body: Record<string, unknown>) =>
  created<ApplicationBody>(
    call(app, key, 'POST', `/api/fields/${fieldId}/fertilizer-applications`, {
      p_app_method: 'injection',
      p_app_date: '2025-04-01',
      ...body,
    }),
  );

/** Gives a field what its 2025 nitrogen balance needs: a cultivation of winter wheat and a soil analysis. */
export async function makeCalculable(app: App, key: string, fieldId: string): Promise<void> {
  await created(
    call(app, key, 'POST', `/api/fields/${fieldId}/cultivations`, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-20',
      b_lu_end: '2025-08-05',
      m_cropresidue: false,
    }),
  );
  await created(
    call(app, key, 'POST', `/api/fields/${fieldId}/soil-analyses`, {
      b_sampling_date: '2025-02-01',
      b_soiltype_agr: 'zeeklei',
      b_gwl_class: 'VI',
      a_som_loi: 3.5,
      a_n_rt: 1800,
    }),
  );
}

/** Sends one request to the app under test, in-process or over HTTP. */
export type Client = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * A farm with one record of every kind; `p_id` is a fertilizer nothing uses, `usedFertilizer` has the application;
 * `year` is the year of its derogation and of its grazing intention.
 */
export interface FarmFixture {
  b_id_farm: string;
  b_id: string;
  b_lu: string;
  b_id_harvesting: string;
  a_id: string;
  p_id: string;
  p_app_id: string;
  usedFertilizer: string;
  year: string;
  b_id_organic: string;
}

/** A valid body of POST /api/farms/{b_id_farm}/organic-certifications. */
export const organicCertificationBody = {
  b_organic_traces: 'NL-BIO-01.528-0002967.2025.001',
  b_organic_skal: '026281',
  b_organic_issued: '2025-01-01',
  b_organic_expires: '2025-12-31',
};

/** Builds a FarmFixture through the API with `key`, and shares the farm as `grants` say. */
export async function farmWithEverything(
  client: Client,
  key: string,
  grants: Array<{ email: string; role: string }> = [],
): Promise<FarmFixture> {
  const send = (method: string, path: string, body: unknown) =>
    client(path, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-api-key': key } });
  const post = <T>(path: string, body: unknown) => created<T>(send('POST', path, body));
  const farm = (await post<{ b_id_farm: string }>('/api/farms', { b_name_farm: 'Fixture farm', b_postalcode_farm: '6708 PB' })).b_id_farm;
  for (const grant of grants) {
    const granted = await send('PUT', `/api/farms/${farm}/access`, grant);
    if (granted.status !== 200) throw new Error(`grant answered ${granted.status}: ${await granted.text()}`);
  }
  const field = (
    await post<{ b_id: string }>(`/api/farms/${farm}/fields`, { b_name: 'Perceel', b_geometry: rectangle(), b_start: '2020-01-01' })
  ).b_id;
  const cultivation = (
    await post<{ b_lu: string }>(`/api/fields/${field}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-01-01' })
  ).b_lu;
  const harvest = await post<{ b_id_harvesting: string }>(`/api/cultivations/${cultivation}/harvests`, {
    b_lu_harvest_date: '2025-06-01',
    b_lu_yield: 3000,
    b_lu_cp: 170,
  });
  const analysis = await post<{ a_id: string }>(`/api/fields/${field}/soil-analyses`, { a_som_loi: 3, b_sampling_date: '2025-01-15' });
  const unused = await post<{ p_id: string }>(`/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT050' });
  const used = await post<{ p_id: string }>(`/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT028' });
  const application = await post<{ p_app_id: string }>(`/api/fields/${field}/fertilizer-applications`, {
    p_id: used.p_id,
    p_app_amount_display: 100,
    p_app_method: 'injection',
    p_app_date: '2025-03-01',
  });
  const year = '2025';
  for (const [path, body] of [
    [`/api/farms/${farm}/derogations/${year}`, undefined],
    [`/api/farms/${farm}/grazing-intentions/${year}`, { b_grazing_intention: false }],
  ] as const) {
    const held = await send('PUT', path, body);
    if (held.status !== 201) throw new Error(`PUT ${path} answered ${held.status}: ${await held.text()}`);
  }
  const certification = await post<{ b_id_organic: string }>(`/api/farms/${farm}/organic-certifications`, organicCertificationBody);
  return {
    b_id_farm: farm,
    b_id: field,
    b_lu: cultivation,
    b_id_harvesting: harvest.b_id_harvesting,
    a_id: analysis.a_id,
    p_id: unused.p_id,
    p_app_id: application.p_app_id,
    usedFertilizer: used.p_id,
    year,
    b_id_organic: certification.b_id_organic,
  };
}
