// The export as CSV: a row per field, its outline as WKT in `geometry` and the CRS of that in `crs`.
import { geoJSONToWkt } from 'betterknown';
import { stringify } from 'csv-stringify/sync';
import type { CrsCode } from '../crs.js';
import type { ExportedField } from './rows.js';

export function csvExport(fields: ExportedField[], crs: CrsCode): string {
  const rows = fields.map(({ outline, ...properties }) => ({ ...properties, crs, geometry: geoJSONToWkt(outline) }));
  const columns = ['b_id', 'b_id_source', 'b_name', 'b_start', 'b_end', 'b_acquiring_method', 'b_area', 'crs', 'geometry'];
  return stringify(rows, { header: true, columns, cast: { number: (value) => String(value) } });
}
