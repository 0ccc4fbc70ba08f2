// From a file's features to parcels: what each feature says about a field, its outline in WGS 84, and
// whether the local checks refuse it. RVO Mijn Percelen attributes (SECTORID, NAAM, BEGINDAT, EINDDAT,
// GEWASCODE, TITEL) and Akker's own (an export's) are read alike.
import { converter, type CrsCode } from './crs.js';
import { CommandFailure } from './failures.js';
import { mapPositions, outlineOf, outsideLonLat, rightHanded, type Outline } from './outline.js';
import { outlineProblem } from './outline-checks.js';
import type { SourceFile } from './read/source.js';
import { dateOfEpochMs, endOfEpochMs } from './rvo-dates.js';

export interface Parcel {
  /** 1-based position of the feature in the file. */
  feature: number;
  name: string;
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
function outlineIn(feature: SourceFile['features'][number], toWgs84: (p: number[]) => number[]): Outline | string {
  const outline = outlineOf(feature.geometry);
  if (typeof outline === 'string') return outline;
  return rightHanded(mapPositions(outline, toWgs84));
}

/**
 * The parcels of a file. Fails, sending nothing, when coordinates are clearly not longitude/latitude and
 * no CRS is known, or when features lack a name or a start date that an option would give.
 */
export function parcelsOf(file: SourceFile, options: ParcelOptions): Parcel[] {
  const crs = options.crs ?? file.crs;
  if (crs === undefined) {
    const outlines = file.features.map((f) => outlineOf(f.geometry)).filter((o): o is Outline => typeof o !== 'string');
    if (outlines.some(outsideLonLat)) {
      throw new CommandFailure(
        'the coordinates are not longitude/latitude and the file names no coordinate system (no .prj, no "crs"): give it with --crs, e.g. --crs EPSG:28992 for RD New',
      );
    }
  }
  const toWgs84 = converter(crs ?? 'EPSG:4326', 'EPSG:4326');
  const parcels = file.features.map((feature, index): Parcel => {
    const p = feature.properties;
    const outline = outlineIn(feature, toWgs84);
    const gewas = code(p.GEWASCODE, 1);
    const titel = code(p.TITEL, 2);
    return {
      feature: index + 1,
      name: nameOf(p, options.nameFrom) ?? '',
      sourceId: asText(p.b_id_source) ?? asText(p.SECTORID) ?? null,
      start: dateValue(p.b_start, false) ?? dateValue(p.BEGINDAT, false) ?? options.start ?? '',
      end: endOf(p),
      acquiringMethod: asText(p.b_acquiring_method) ?? (titel === undefined ? undefined : `nl_${titel}`),
      cropCode: gewas === undefined ? undefined : `nl_${gewas}`,
      outline: typeof outline === 'string' ? undefined : outline,
      refused: typeof outline === 'string' ? `it ${outline}` : outlineProblem(outline),
    };
  });
  requireStated(
    parcels,
    (parcel) => parcel.name === '',
    options.nameFrom === undefined
      ? 'a name: name the property that holds it with --name-from PROPERTY'
      : `the property ${options.nameFrom} (--name-from)`,
  );
  requireStated(parcels, (parcel) => parcel.start === '', 'a start date: give one with --start YYYY-MM-DD');
  return parcels;
}

function requireStated(parcels: Parcel[], lacks: (parcel: Parcel) => boolean, what: string) {
  const lacking = parcels.filter(lacks).map((parcel) => parcel.feature);
  if (lacking.length === 0) return;
  const list = lacking.length > 5 ? `${lacking.slice(0, 5).join(', ')} and ${lacking.length - 5} more` : lacking.join(', ');
  throw new CommandFailure(`feature${lacking.length > 1 ? 's' : ''} ${list} of the file state${lacking.length > 1 ? '' : 's'} no ${what}`);
}
