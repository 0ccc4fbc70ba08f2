// The export as a GeoJSON FeatureCollection; in another CRS than WGS 84 with the named `crs` member an import reads.
import { geoJsonCrsMember, type CrsCode } from '../crs.js';
import type { ExportedField } from './rows.js';

export function geoJsonExport(fields: ExportedField[], crs: CrsCode): string {
  const collection = {
    type: 'FeatureCollection',
    ...(crs === 'EPSG:4326' ? {} : { crs: geoJsonCrsMember(crs) }),
    features: fields.map(({ outline, ...properties }) => ({ type: 'Feature', id: properties.b_id, geometry: outline, properties })),
  };
  return `${JSON.stringify(collection)}\n`;
}
