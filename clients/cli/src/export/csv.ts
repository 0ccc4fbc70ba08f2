// The export as CSV: a row per field, its outline as WKT in `geometry` and the CRS of that in `crs`. A cell
// that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is written
// quoted, after a single quote, as OWASP's spreadsheet-safe CSV has it; read/csv.ts takes the quote off again.
import { geoJSONToWkt } from 'betterknown';
import { stringify } from 'csv-stringify/sync';
import type { CrsCode } from '../crs.js';
import type { ExportedField } from './rows.js';

/** A cell a spreadsheet would take for a formula, after any single quotes an earlier escape put before it. */
export const FORMULA_CELL = /^'*[=+\-@\t\r]/;

export function csvExport(fields: ExportedField[], crs: CrsCode): string {
  const rows = fields.map(({ outline, ...properties }) => ({ ...properties, crs, geometry: geoJSONToWkt(outline) }));
  const columns = ['b_id', 'b_id_source', 'b_name', 'b_start', 'b_end', 'b_acquiring_method', 'b_area', 'crs', 'geometry'];
  return stringify(rows, {
    header: true,
    columns,
    cast: { number: (value) => String(value), string: (value) => (FORMULA_CELL.test(value) ? `'${value}` : value) },
    quoted_match: /^'+[=+\-@\t\r]/,
  });
}
