// The export as a zipped shapefile in the layout of an RVO Mijn Percelen export (dBASE names have at most 10
// characters): SECTORID (b_id_source), NAAM, BEGINDAT and EINDDAT (epoch milliseconds, Dutch time), TITEL
// (the acquiring method's code), and AKKER_ID (b_id); the .prj names the CRS. An import reads it back as RVO's.
import { zip } from '@mapbox/shp-write';
import { prjOf, type CrsCode } from '../crs.js';
import { leftHanded } from '../outline.js';
import { epochMsOfDate, NO_END_MS } from '../rvo-dates.js';
import { emptyShapefileZip } from './empty-shapefile.js';
import type { ExportedField } from './rows.js';

/** TITEL is the number of a reference code; owner and lease are nl_01 and nl_02. */
const titelOf = (method: string) => ({ owner: '01', lease: '02' })[method] ?? /^nl_(\d+)$/.exec(method)?.[1] ?? '';

export async function shapefileExport(fields: ExportedField[], crs: CrsCode): Promise<Uint8Array> {
  if (fields.length === 0) return emptyShapefileZip(prjOf[crs]);
  const features = fields.map((field) => ({
    type: 'Feature' as const,
    // A shapefile's outer rings run clockwise: readers take a counterclockwise ring for a hole.
    geometry: leftHanded(field.outline),
    properties: {
      SECTORID: field.b_id_source ?? '',
      NAAM: field.b_name,
      BEGINDAT: epochMsOfDate(field.b_start),
      EINDDAT: field.b_end === null ? NO_END_MS : epochMsOfDate(field.b_end),
      TITEL: titelOf(field.b_acquiring_method),
      AKKER_ID: field.b_id,
    },
  }));
  const types = { polygon: 'percelen', multipolygon: 'percelen_multi' };
  return zip<'uint8array'>(
    { type: 'FeatureCollection', features },
    { prj: prjOf[crs], types, outputType: 'uint8array', compression: 'DEFLATE' },
  );
}
