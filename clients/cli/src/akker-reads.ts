// What the commands read from Akker: a farm's fields with their outlines, the crop catalogue's codes, the crops of a field.
import { AkkerError, eachItem } from '@akker/client';
import type { Connection } from './connection.js';
import { CommandFailure } from './failures.js';

/** An error answer of a read, as a command failure that says what it means for the command. */
export function readFailure(what: string, status: number, detail: string | undefined): CommandFailure {
  if (status === 401) return new CommandFailure(`Akker refused the API key (401): ${detail ?? 'unauthorized'}`);
  if (status === 404) return new CommandFailure(`${what}: not found, or you have no role on it (404)`);
  return new CommandFailure(`${what}: Akker answered ${status}${detail ? `: ${detail}` : ''}`);
}

async function collect<T>(what: string, items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  try {
    for await (const item of items) all.push(item);
  } catch (error) {
    if (error instanceof AkkerError) throw readFailure(what, error.status, error.problem?.detail);
    throw error;
  }
  return all;
}

/** A page of a farm's fields as GeoJSON features, in the shape eachItem pages through. */
async function fieldsPage(connection: Connection, farmId: string, page: { limit: number; offset: number }) {
  const { data, error, response } = await connection.geoJson.GET('/api/farms/{b_id_farm}/fields', {
    params: { path: { b_id_farm: farmId }, query: page },
    signal: connection.signal,
  });
  return { data: data && { data: data.features, pagination: data.pagination }, error, response };
}

/** A field as the GeoJSON list answers it. */
export type FieldFeature = NonNullable<Awaited<ReturnType<typeof fieldsPage>>['data']>['data'][number];

/** Every field of a farm (all pages) as GeoJSON features, outlines in WGS 84 with right-handed rings. */
export function farmFields(connection: Connection, farmId: string): Promise<FieldFeature[]> {
  return collect(
    `farm ${farmId}`,
    eachItem((page) => fieldsPage(connection, farmId, page)),
  );
}

/** The codes of the crop catalogue. */
export async function cropCodes(connection: Connection): Promise<Set<string>> {
  const pages = (page: { limit: number; offset: number }) =>
    connection.json.GET('/api/catalogues/cultivations', { params: { query: page }, signal: connection.signal });
  const crops = await collect('the crop catalogue', eachItem(pages));
  return new Set(crops.map((crop) => crop.b_lu_catalogue));
}

/** The crop codes of a field's cultivations whose period overlaps a year. */
export async function cropsInYear(connection: Connection, fieldId: string, year: number): Promise<Set<string>> {
  const pages = (page: { limit: number; offset: number }) =>
    connection.json.GET('/api/fields/{b_id}/cultivations', {
      params: { path: { b_id: fieldId }, query: { ...page, start: `${year}-01-01`, end: `${year}-12-31` } },
      signal: connection.signal,
    });
  const cultivations = await collect(`the cultivations of field ${fieldId}`, eachItem(pages));
  return new Set(cultivations.map((cultivation) => cultivation.b_lu_catalogue));
}

export async function listFarms(connection: Connection) {
  const pages = (page: { limit: number; offset: number }) =>
    connection.json.GET('/api/farms', { params: { query: page }, signal: connection.signal });
  return collect('the farms', eachItem(pages));
}
