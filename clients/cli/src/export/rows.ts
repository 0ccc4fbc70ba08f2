// A field as an export writes it: the members an import reads back, its outline in the export's CRS.
import type { FieldFeature } from '../akker-reads.js';
import { converter, type CrsCode } from '../crs.js';
import { mapPositions, type Outline } from '../outline.js';

export interface ExportedField {
  b_id: string;
  b_id_source: string | null;
  b_name: string;
  b_start: string;
  b_end: string | null;
  b_acquiring_method: string;
  b_area: number;
  outline: Outline;
}

export function exportedFields(fields: FieldFeature[], crs: CrsCode): ExportedField[] {
  const fromWgs84 = converter('EPSG:4326', crs);
  return fields.map(({ geometry, properties: p }) => ({
    b_id: p.b_id,
    b_id_source: p.b_id_source,
    b_name: p.b_name,
    b_start: p.b_start,
    b_end: p.b_end,
    b_acquiring_method: p.b_acquiring_method,
    b_area: p.b_area,
    outline: mapPositions(geometry as Outline, fromWgs84),
  }));
}
