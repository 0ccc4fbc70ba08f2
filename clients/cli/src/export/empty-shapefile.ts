// A shapefile of no features, as a farm without fields exports: headers only, which GDAL and QGIS open as an
// empty layer with the attributes of an export. (@mapbox/shp-write writes no files at all for no features.)
import { zipSync } from 'fflate';

/** The attributes of an export (export/shapefile.ts), as dBASE field descriptors: name, type, width. */
const COLUMNS: Array<[string, 'C' | 'N', number]> = [
  ['SECTORID', 'C', 254],
  ['NAAM', 'C', 254],
  ['BEGINDAT', 'N', 18],
  ['EINDDAT', 'N', 18],
  ['TITEL', 'C', 254],
  ['AKKER_ID', 'C', 254],
];

const POLYGON = 5;

/** The 100-byte header a .shp and its .shx share: no records, so 100 bytes long, of polygons, an empty box. */
function mainHeader(): Uint8Array {
  const header = new Uint8Array(100);
  const view = new DataView(header.buffer);
  view.setInt32(0, 9994, false);
  view.setInt32(24, 50, false);
  view.setInt32(28, 1000, true);
  view.setInt32(32, POLYGON, true);
  return header;
}

function emptyDbf(today: Date): Uint8Array {
  const headerLength = 32 + 32 * COLUMNS.length + 1;
  const dbf = new Uint8Array(headerLength + 1);
  const view = new DataView(dbf.buffer);
  dbf[0] = 0x03;
  dbf.set([today.getUTCFullYear() - 1900, today.getUTCMonth() + 1, today.getUTCDate()], 1);
  view.setUint32(4, 0, true);
  view.setUint16(8, headerLength, true);
  view.setUint16(10, 1 + COLUMNS.reduce((sum, [, , width]) => sum + width, 0), true);
  COLUMNS.forEach(([name, type, width], i) => {
    const at = 32 + 32 * i;
    dbf.set(new TextEncoder().encode(name), at);
    dbf[at + 11] = type.charCodeAt(0);
    dbf[at + 16] = width;
  });
  dbf[headerLength - 1] = 0x0d;
  dbf[headerLength] = 0x1a;
  return dbf;
}

/** The .zip of an export of no fields: percelen.shp, .shx, .dbf, .prj and .cpg. */
export function emptyShapefileZip(prj: string, today = new Date()): Uint8Array {
  const text = new TextEncoder();
  return zipSync({
    'percelen.shp': mainHeader(),
    'percelen.shx': mainHeader(),
    'percelen.dbf': emptyDbf(today),
    'percelen.prj': text.encode(prj),
    'percelen.cpg': text.encode('UTF-8'),
  });
}
