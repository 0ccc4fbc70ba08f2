// Reads an import file, recognised by its content: a .zip or a .shp (with the files beside it), GeoJSON, KML or CSV.
// Every file is at most MAX_READ_BYTES, checked before it is read, and has at most MAX_FEATURES features.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { CommandFailure } from '../failures.js';
import { looksLikeCsv, readCsv } from './csv.js';
import { readGeoJson } from './geojson.js';
import { readKml } from './kml.js';
import { MAX_FEATURES, MAX_READ_BYTES, megabytes } from './limits.js';
import { isShp, readShapefiles, type ShapefileParts } from './shapefile.js';
import type { SourceFile } from './source.js';
import { unpackShapefileParts } from './zip.js';

export interface ReadFile extends SourceFile {
  /** The file's name, without its folder: what a made-up field name is made of. */
  name: string;
  /** SHA-256 of every byte read (a shapefile's .dbf and .prj too): what the idempotency keys of the writes derive from. */
  contentHash: string;
}

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

/** The whole of a file, once its size is known to be within bounds; undefined when there is none. */
async function readBounded(path: string, optional = false): Promise<Uint8Array | undefined> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CommandFailure(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (size > MAX_READ_BYTES)
    throw new CommandFailure(
      `${basename(path)} is ${megabytes(size)}: an import reads files of at most ${megabytes(MAX_READ_BYTES)}; import it in parts`,
    );
  try {
    return await readFile(path);
  } catch (error) {
    throw new CommandFailure(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** The files beside a .shp with the same name: `x.dbf` or `x.DBF`. */
async function besideShp(path: string, shp: Uint8Array): Promise<{ parts: ShapefileParts; read: Uint8Array[] }> {
  const stem = join(dirname(path), basename(path, extname(path)));
  const sibling = async (extension: string) =>
    (await readBounded(`${stem}.${extension}`, true)) ?? readBounded(`${stem}.${extension.toUpperCase()}`, true);
  const [dbf, prj, cpg] = [await sibling('dbf'), await sibling('prj'), await sibling('cpg')];
  const parts = { name: basename(path), shp, dbf, prj: text(prj), cpg: text(cpg) };
  return { parts, read: [dbf, prj, cpg].filter((bytes): bytes is Uint8Array => bytes !== undefined) };
}

async function shapefilesInZip(name: string, zip: Uint8Array): Promise<ShapefileParts[]> {
  const entries = await unpackShapefileParts(name, zip);
  const byLowerName = new Map([...entries].map(([path, bytes]) => [path.toLowerCase(), bytes]));
  const layers = [...byLowerName.keys()].filter((path) => path.endsWith('.shp'));
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
  const bytes = (await readBounded(path))!;
  const hash = createHash('sha256').update(bytes);
  const name = basename(path);
  let source: SourceFile;
  if (isZip(bytes)) source = await readShapefiles(await shapefilesInZip(name, bytes));
  else if (isShp(bytes)) {
    const { parts, read } = await besideShp(path, bytes);
    for (const more of read) hash.update(more);
    source = await readShapefiles([parts]);
  } else source = readText(name, bytes);
  if (source.features.length > MAX_FEATURES)
    throw new CommandFailure(
      `${name} has ${source.features.length} features, more than the ${MAX_FEATURES} an import takes (far more fields than a farm has): import it in parts`,
    );
  return { ...source, name, contentHash: hash.digest('hex') };
}
