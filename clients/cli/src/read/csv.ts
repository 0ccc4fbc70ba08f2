// CSV as the export writes it: a row per field, its outline as WKT in `geometry`, its CRS in `crs`; a cell the
// export escaped as a formula has its single quote taken off.
import { wktToGeoJSON } from 'betterknown';
import { parse } from 'csv-parse/sync';
import { crsFromName, type CrsCode } from '../crs.js';
import { CommandFailure } from '../failures.js';
import { FORMULA_CELL } from '../export/csv.js';
import type { SourceFile } from './source.js';

/** Whether the first line of a text is a CSV header with a `geometry` column. */
export const looksLikeCsv = (text: string) => /^([^\n]*,)?"?geometry"?(,|\r?\n|$)/.test(text);

export function readCsv(text: string): SourceFile {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true });
  } catch (error) {
    throw new CommandFailure(`the CSV cannot be read: ${(error as Error).message}`);
  }
  const named = new Set(rows.map((row) => row.crs ?? ''));
  if (named.size > 1) throw new CommandFailure('the rows of the CSV name different coordinate systems in "crs"');
  const name = [...named][0];
  let crs: CrsCode | undefined;
  if (name) {
    crs = crsFromName(name);
    if (!crs) throw new CommandFailure(`the CSV names a CRS this command does not know (${name}): give it with --crs`);
  }
  const features = rows.map(({ geometry, crs: _crs, ...properties }, index) => {
    const parsed = geometry ? wktToGeoJSON(geometry) : null;
    if (geometry && !parsed) throw new CommandFailure(`row ${index + 1}: "geometry" is not WKT`);
    const stated = Object.fromEntries(
      Object.entries(properties)
        .filter(([, value]) => value !== '')
        .map(([key, value]) => [key, FORMULA_CELL.test(value.slice(1)) && value.startsWith("'") ? value.slice(1) : value]),
    );
    return { properties: stated, geometry: parsed };
  });
  return { format: 'CSV', crs, features };
}
