// From a file's features to parcels: what each feature says about a field, its outline in WGS 84, and
// whether the local checks refuse it. RVO Mijn Percelen attributes (SECTORID, NAAM, BEGINDAT, EINDDAT,
// GEWASCODE, TITEL) and Akker's own (an export's) are read alike.
import { converter, outsideAreaOfUse, type CrsCode } from './crs.js';
import { CommandFailure } from './failures.js';
import { mapPositions, outlineOf, outsideLonLat, polygonsOf, rightHanded, type Outline } from './outline.js';
import { outlineProblem } from './outline-checks.js';
import type { SourceFile } from './read/source.js';
import { dateOfEpochMs, endOfEpochMs } from './rvo-dates.js';

export interface Parcel {
  /** 1-based position of the feature in the file. */
  feature: number;
  name: string;
  /** Whether the file states no name and `name` is made up: shown as such, never sent over a name the field has. */
  nameMadeUp: boolean;
  sourceId: string | null;
  start: string;
  /** null: no end; undefined: the file does not say. */
  end: string | null | undefined;
  acquiringMethod: string | undefined;
  /** The crop code as the catalogue writes it (`nl_233`), when the file names one. */
  cropCode: string | undefined;
  outline: Outline | undefined;
  /** Why the parcel is not sent, when the local checks refuse it. */
  refused: string | undefined;
}

export interface ParcelOptions {
  nameFrom: string | undefined;
  start: string | undefined;
  crs: CrsCode | undefined;
}

/** Whether the file is an RVO Mijn Percelen export: its features carry SECTORID and BEGINDAT. */
export const isRvoExport = (file: SourceFile) =>
  file.features.length > 0 && file.features.every((f) => 'SECTORID' in f.properties && 'BEGINDAT' in f.properties);

const stated = (value: unknown): value is string | number | Date => (typeof value === 'string' ? value.trim() !== '' : value != null);
const asText = (value: unknown): string | undefined => (stated(value) ? String(value).trim() : undefined);

/** A date written as YYYY-MM-DD, an RVO epoch-milliseconds number (or its digits), or a dBASE date. */
function dateValue(value: unknown, end: boolean): string | null | undefined {
  if (!stated(value)) return undefined;
  if (value instanceof Date) return dateOfEpochMs(value.getTime());
  const text = String(value).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  if (/^\d+$/.test(text)) return end ? endOfEpochMs(Number(text)) : dateOfEpochMs(Number(text));
  return text;
}

const code = (value: unknown, width: number): string | undefined => {
  const text = asText(value);
  return text === undefined ? undefined : /^\d+$/.test(text) ? text.padStart(width, '0') : text;
};

function nameOf(properties: Record<string, unknown>, nameFrom: string | undefined): string | undefined {
  if (nameFrom !== undefined) return asText(properties[nameFrom]);
  return ['b_name', 'NAAM', 'name', 'Name', 'NAME', 'naam'].map((key) => asText(properties[key])).find((name) => name !== undefined);
}

function endOf(properties: Record<string, unknown>): string | null | undefined {
  if ('b_end' in properties) return dateValue(properties.b_end, true) ?? null;
  if ('EINDDAT' in properties) return dateValue(properties.EINDDAT, true) ?? null;
  return undefined;
}

/** The outline in WGS 84 with its rings right-handed, or why there is none. */
const outlineIn = (outline: Outline | string, toWgs84: (p: number[]) => number[]): Outline | string =>
  typeof outline === 'string' ? outline : rightHanded(mapPositions(outline, toWgs84));

/**
 * The name of a feature that states none, made from what the file has: an RVO export's sequence number or
 * sector id, else the file's name and the feature's position in it.
 */
function madeUpName(properties: Record<string, unknown>, fileName: string, position: number): string {
  const sequence = asText(properties.VOLGNR) ?? asText(properties.VOLGNUMMER);
  if (sequence !== undefined) return `Perceel ${sequence}`;
  const sector = asText(properties.SECTORID);
  if (sector !== undefined) return `Sector ${sector}`;
  return `${fileName} #${position}`;
}

/** The first position of the file that lies outside where its CRS is used, as a failure that names it. */
function checkAreaOfUse(crs: CrsCode, sources: Array<Outline | string>, toWgs84: (p: number[]) => number[]) {
  for (const [index, outline] of sources.entries()) {
    if (typeof outline === 'string') continue;
    for (const position of polygonsOf(outline).flat(1).flat(1)) {
      const outside = outsideAreaOfUse(crs, toWgs84(position));
      if (outside === undefined) continue;
      throw new CommandFailure(
        `feature ${index + 1} has a position (${position[0]}, ${position[1]}) outside where its coordinate ` +
          `system is used: ${outside}. Nothing was sent: is the file in another system? Give it with --crs`,
      );
    }
  }
}

/** Two features with one source id would be two fields for one parcel: each such feature is refused, naming the others. */
function refuseSharedSourceIds(parcels: Parcel[]) {
  const bySourceId = new Map<string, Parcel[]>();
  for (const parcel of parcels) {
    if (parcel.sourceId === null) continue;
    const sharing = bySourceId.get(parcel.sourceId);
    if (sharing) sharing.push(parcel);
    else bySourceId.set(parcel.sourceId, [parcel]);
  }
  for (const [sourceId, sharing] of bySourceId) {
    if (sharing.length < 2) continue;
    for (const parcel of sharing) {
      const others = sharing.filter((other) => other !== parcel).map((other) => other.feature);
      parcel.refused = `its source id ${sourceId} is also that of feature${others.length > 1 ? 's' : ''} ${others.join(', ')}: a source id names one parcel`;
    }
  }
}

/**
 * The parcels of a file. Fails, sending nothing, when coordinates are clearly not longitude/latitude and
 * no CRS is known, when a position lies outside where the file's CRS is used, or when features lack a
 * start date that an option would give. A feature without a name gets one made up (`nameMadeUp`).
 */
export function parcelsOf(file: SourceFile & { name: string }, options: ParcelOptions): Parcel[] {
  const crs = options.crs ?? file.crs;
  const sources = file.features.map((feature) => outlineOf(feature.geometry));
  if (crs === undefined && sources.some((outline) => typeof outline !== 'string' && outsideLonLat(outline))) {
    throw new CommandFailure(
      'the coordinates are not longitude/latitude and the file names no coordinate system (no .prj, no "crs"): give it with --crs, e.g. --crs EPSG:28992 for RD New',
    );
  }
  if (options.nameFrom !== undefined && !file.features.some((feature) => options.nameFrom! in feature.properties))
    throw new CommandFailure(`--name-from ${options.nameFrom}: no feature of the file has that property`);
  const toWgs84 = converter(crs ?? 'EPSG:4326', 'EPSG:4326');
  checkAreaOfUse(crs ?? 'EPSG:4326', sources, toWgs84);
  const parcels = file.features.map((feature, index): Parcel => {
    const p = feature.properties;
    const outline = outlineIn(sources[index]!, toWgs84);
    const gewas = code(p.GEWASCODE, 1);
    const titel = code(p.TITEL, 2);
    const name = nameOf(p, options.nameFrom);
    return {
      feature: index + 1,
      name: name ?? madeUpName(p, file.name, index + 1),
      nameMadeUp: name === undefined,
      sourceId: asText(p.b_id_source) ?? asText(p.SECTORID) ?? null,
      start: dateValue(p.b_start, false) ?? dateValue(p.BEGINDAT, false) ?? options.start ?? '',
      end: endOf(p),
      acquiringMethod: asText(p.b_acquiring_method) ?? (titel === undefined ? undefined : `nl_${titel}`),
      cropCode: gewas === undefined ? undefined : `nl_${gewas}`,
      outline: typeof outline === 'string' ? undefined : outline,
      refused: typeof outline === 'string' ? `it ${outline}` : outlineProblem(outline),
    };
  });
  refuseSharedSourceIds(parcels);
  const undated = parcels.filter((parcel) => parcel.start === '').map((parcel) => parcel.feature);
  if (undated.length > 0) {
    const list = undated.length > 5 ? `${undated.slice(0, 5).join(', ')} and ${undated.length - 5} more` : undated.join(', ');
    throw new CommandFailure(
      `feature${undated.length > 1 ? 's' : ''} ${list} of the file state${undated.length > 1 ? '' : 's'} no start date: give one with --start YYYY-MM-DD`,
    );
  }
  return parcels;
}
