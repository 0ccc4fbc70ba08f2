// Shapefiles: the .shp with its .dbf, .prj and .cpg, read with the `shapefile` package. The .prj decides the CRS.
// The .shp is first walked record by record: a file that cannot be read to its end is refused, never read as
// fewer features (the package stops at the first record it cannot read, as if the file ended there).
import { open } from 'shapefile';
import type { CrsCode } from '../crs.js';
import { CommandFailure } from '../failures.js';
import { crsFromPrj } from '../prj.js';
import { dbfEncoding } from './dbf-encoding.js';
import { MAX_FEATURES } from './limits.js';
import type { SourceFeature, SourceFile } from './source.js';

/** The files of one shapefile, by extension; `name` is how messages call it. */
export interface ShapefileParts {
  name: string;
  shp: Uint8Array;
  dbf: Uint8Array | undefined;
  prj: string | undefined;
  cpg: string | undefined;
}

/** A .shp starts with the file code 9994, big-endian. */
export const isShp = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0x27 && bytes[3] === 0x0a;

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Shape types that hold outlines (Polygon, PolygonZ, PolygonM; Z and M are dropped), and the null shape. */
const OUTLINE_TYPES = new Set([0, 5, 15, 25]);
const TYPE_NAMES: Record<number, string> = { 1: 'points', 3: 'lines', 8: 'multipoints', 31: 'multipatches' };
/** Points, lines and multipoints come in 2-D, M (+20) and Z (+10) types. */
const typeName = (type: number) => TYPE_NAMES[type === 31 ? type : type % 10] ?? `shapes of type ${type}`;

const shapeTypeOf = (shp: Uint8Array) => view(shp).getInt32(32, true);

/** The number of records of a .shp, walked by their stated lengths to the file's end; a failure when they do not add up. */
function recordCount({ name, shp }: ShapefileParts): number {
  if (shp.length < 100) throw new CommandFailure(`${name}: the .shp is truncated (${shp.length} bytes, less than its 100-byte header)`);
  const data = view(shp);
  const stated = data.getInt32(24, false) * 2;
  if (stated !== shp.length)
    throw new CommandFailure(`${name}: the .shp is truncated or damaged: its header says ${stated} bytes, the file has ${shp.length}`);
  const fileType = shapeTypeOf(shp);
  let count = 0;
  for (let offset = 100; offset < shp.length; count++) {
    const damaged = (why: string) => new CommandFailure(`${name}: the .shp is damaged: record ${count + 1} (at byte ${offset}) ${why}`);
    if (offset + 12 > shp.length) throw damaged('is cut off');
    const length = data.getInt32(offset + 4, false) * 2;
    if (length < 4 || offset + 8 + length > shp.length) throw damaged(`states a length of ${length} bytes, which the file cannot hold`);
    const type = data.getInt32(offset + 8, true);
    if (type !== 0 && type !== fileType) throw damaged(`is of shape type ${type} in a file of type ${fileType}`);
    if (count + 1 > MAX_FEATURES)
      throw new CommandFailure(
        `${name}: the .shp has more than ${MAX_FEATURES} features, far more fields than a farm has: import it in parts`,
      );
    offset += 8 + length;
  }
  return count;
}

async function featuresOf(parts: ShapefileParts): Promise<SourceFeature[]> {
  const count = recordCount(parts);
  if (parts.dbf !== undefined && parts.dbf.length >= 8) {
    const rows = view(parts.dbf).getUint32(4, true);
    if (rows !== count)
      throw new CommandFailure(`${parts.name}: the .dbf has ${rows} records, the .shp ${count}: they are not one shapefile`);
  }
  const features: SourceFeature[] = [];
  try {
    const source = await open(parts.shp, parts.dbf, { encoding: dbfEncoding(parts.cpg, parts.dbf) });
    for (let record = await source.read(); !record.done; record = await source.read()) {
      features.push({ properties: { ...record.value.properties }, geometry: record.value.geometry });
    }
  } catch (error) {
    if (error instanceof CommandFailure) throw error;
    throw new CommandFailure(`${parts.name}: the shapefile cannot be read: ${(error as Error).message}`);
  }
  if (features.length !== count)
    throw new CommandFailure(`${parts.name}: the shapefile cannot be read to its end: ${features.length} of its ${count} records read`);
  return features;
}

/**
 * One or more shapefiles (a .zip may hold several layers) as one source; without a .prj, the CRS is not stated.
 * Layers of points or lines are not outlines: they are left out, and said so in the notes.
 */
export async function readShapefiles(layers: ShapefileParts[]): Promise<SourceFile> {
  const notes: string[] = [];
  const outlines = layers.filter((layer) => {
    if (layer.shp.length < 100 || OUTLINE_TYPES.has(shapeTypeOf(layer.shp))) return true;
    notes.push(`${layer.name} holds ${typeName(shapeTypeOf(layer.shp))}, not field outlines: not read`);
    return false;
  });
  if (outlines.length === 0) throw new CommandFailure(`${notes.join('; ')}: the file has no polygons to import`);
  const crss = new Set<CrsCode | undefined>(outlines.map((layer) => (layer.prj === undefined ? undefined : crsFromPrj(layer.prj))));
  if (crss.size > 1) throw new CommandFailure('the shapefiles of the .zip are in different coordinate systems: import them one by one');
  const features: SourceFeature[] = [];
  for (const layer of outlines) {
    for (const feature of await featuresOf(layer)) features.push(feature);
    if (features.length > MAX_FEATURES)
      throw new CommandFailure(
        `the shapefiles have more than ${MAX_FEATURES} features, far more fields than a farm has: import them in parts`,
      );
  }
  return { format: 'shapefile', crs: [...crss][0], features, notes };
}
