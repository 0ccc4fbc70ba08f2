// akker fields export: every field of a farm, in GeoJSON, a zipped shapefile or CSV, in WGS 84 or another CRS.
import { writeFile } from 'node:fs/promises';
import { farmFields } from './akker-reads.js';
import { connect, type ConnectionOptions } from './connection.js';
import type { CrsCode } from './crs.js';
import { csvExport } from './export/csv.js';
import { geoJsonExport } from './export/geojson.js';
import { exportedFields } from './export/rows.js';
import { shapefileExport } from './export/shapefile.js';
import { CommandFailure, EXIT } from './failures.js';
import type { Io } from './io.js';

export const exportFormats = ['geojson', 'shapefile', 'csv'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export interface ExportOptions extends ConnectionOptions {
  farm: string;
  format: ExportFormat;
  crs: CrsCode;
  out: string | undefined;
}

export async function exportFields(options: ExportOptions, io: Io): Promise<number> {
  if (options.format === 'shapefile' && options.out === undefined)
    throw new CommandFailure('a shapefile export is a .zip: give --out FILE');
  const connection = connect(options, io.env);
  const fields = exportedFields(await farmFields(connection, options.farm), options.crs);
  const content =
    options.format === 'geojson'
      ? geoJsonExport(fields, options.crs)
      : options.format === 'csv'
        ? csvExport(fields, options.crs)
        : await shapefileExport(fields, options.crs);
  if (options.out === undefined) {
    io.out(typeof content === 'string' ? content : '');
    return EXIT.done;
  }
  try {
    await writeFile(options.out, content);
  } catch (error) {
    throw new CommandFailure(`cannot write ${options.out}: ${(error as Error).message}`);
  }
  io.err(`${fields.length} field${fields.length === 1 ? '' : 's'} written to ${options.out} (${options.format}, ${options.crs})\n`);
  return EXIT.done;
}
