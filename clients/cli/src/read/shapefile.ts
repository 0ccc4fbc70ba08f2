// Shapefiles: the .shp with its .dbf, .prj and .cpg, read with the `shapefile` package. The .prj decides the CRS.
import { open } from 'shapefile';
import { crsFromPrj, type CrsCode } from '../crs.js';
import { CommandFailure } from '../failures.js';
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

/** The header states the file's length (in 16-bit words): a shorter file was cut off. */
function checkLength({ name, shp }: ShapefileParts) {
  if (shp.length < 100) throw new CommandFailure(`${name}: the .shp is truncated (${shp.length} bytes, less than its 100-byte header)`);
  const stated = new DataView(shp.buffer, shp.byteOffset, shp.byteLength).getInt32(24, false) * 2;
  if (stated !== shp.length) {
    throw new CommandFailure(`${name}: the .shp is truncated or damaged: its header says ${stated} bytes, the file has ${shp.length}`);
  }
}

async function featuresOf(parts: ShapefileParts): Promise<SourceFeature[]> {
  checkLength(parts);
  const features: SourceFeature[] = [];
  try {
    const source = await open(parts.shp, parts.dbf, { encoding: parts.cpg?.trim() || 'windows-1252' });
    for (let record = await source.read(); !record.done; record = await source.read()) {
      features.push({ properties: { ...record.value.properties }, geometry: record.value.geometry });
    }
  } catch (error) {
    throw new CommandFailure(`${parts.name}: the shapefile cannot be read: ${(error as Error).message}`);
  }
  return features;
}

/** One or more shapefiles (a .zip may hold several layers) as one source; without a .prj, the CRS is not stated. */
export async function readShapefiles(layers: ShapefileParts[]): Promise<SourceFile> {
  const crss = new Set<CrsCode | undefined>(layers.map((layer) => (layer.prj === undefined ? undefined : crsFromPrj(layer.prj))));
  if (crss.size > 1) throw new CommandFailure('the shapefiles of the .zip are in different coordinate systems: import them one by one');
  const features: SourceFeature[] = [];
  for (const layer of layers) features.push(...(await featuresOf(layer)));
  return { format: 'shapefile', crs: [...crss][0], features };
}
