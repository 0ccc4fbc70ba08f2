// Reads an import file, recognised by its content: a .zip or a .shp (with the files beside it), GeoJSON, KML or CSV.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { CommandFailure } from '../failures.js';
import { looksLikeCsv, readCsv } from './csv.js';
import { readGeoJson } from './geojson.js';
import { readKml } from './kml.js';
import { isShp, readShapefiles, type ShapefileParts } from './shapefile.js';
import type { SourceFile } from './source.js';

export interface ReadFile extends SourceFile {
  /** SHA-256 of every byte read (a shapefile's .dbf and .prj too): what the idempotency keys of the writes derive from. */
  contentHash: string;
}

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

async function readIfThere(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The files beside a .shp with the same name: `x.dbf` or `x.DBF`. */
async function besideShp(path: string, shp: Uint8Array): Promise<{ parts: ShapefileParts; read: Uint8Array[] }> {
  const stem = join(dirname(path), basename(path, extname(path)));
  const sibling = async (extension: string) =>
    (await readIfThere(`${stem}.${extension}`)) ?? readIfThere(`${stem}.${extension.toUpperCase()}`);
  const [dbf, prj, cpg] = [await sibling('dbf'), await sibling('prj'), await sibling('cpg')];
  const parts = { name: basename(path), shp, dbf, prj: text(prj), cpg: text(cpg) };
  return { parts, read: [dbf, prj, cpg].filter((bytes): bytes is Uint8Array => bytes !== undefined) };
}

function shapefilesInZip(name: string, zip: Uint8Array): ShapefileParts[] {
  let entries;
  try {
    entries = unzipSync(zip);
  } catch (error) {
    throw new CommandFailure(`${name}: the .zip cannot be read: ${(error as Error).message}`);
  }
  const byLowerName = new Map(Object.entries(entries).map(([path, bytes]) => [path.toLowerCase(), bytes]));
  const layers = [...byLowerName.keys()].filter((path) => path.endsWith('.shp') && !basename(path).startsWith('.'));
  if (layers.length === 0) throw new CommandFailure(`${name}: the .zip holds no .shp`);
  return layers.map((shpPath) => {
    const stem = shpPath.slice(0, -4);
    return {
      name: `${name}:${basename(shpPath)}`,
      shp: byLowerName.get(shpPath)!,
      dbf: byLowerName.get(`${stem}.dbf`),
      prj: text(byLowerName.get(`${stem}.prj`)),
      cpg: text(byLowerName.get(`${stem}.cpg`)),
    };
  });
}

function readText(name: string, bytes: Uint8Array): SourceFile {
  const content = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  const start = content.trimStart();
  if (start.startsWith('{')) return readGeoJson(content);
  if (start.startsWith('<') && /<kml[\s>]/.test(start.slice(0, 2000))) return readKml(content);
  if (looksLikeCsv(start)) return readCsv(start);
  throw new CommandFailure(`${name} is not GeoJSON, KML, a shapefile (.zip or .shp) or CSV with a "geometry" column`);
}

export async function readImportFile(path: string): Promise<ReadFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CommandFailure(`cannot read ${path}: ${(error as Error).message}`);
  }
  const hash = createHash('sha256').update(bytes);
  const name = basename(path);
  let source: SourceFile;
  if (isZip(bytes)) source = await readShapefiles(shapefilesInZip(name, bytes));
  else if (isShp(bytes)) {
    const { parts, read } = await besideShp(path, bytes);
    for (const more of read) hash.update(more);
    source = await readShapefiles([parts]);
  } else source = readText(name, bytes);
  return { ...source, contentHash: hash.digest('hex') };
}
