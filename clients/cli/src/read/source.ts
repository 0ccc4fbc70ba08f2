// What a reader makes of a file: its features as they are in it, and the CRS the file states, if any.
import type { Geometry } from 'geojson';
import type { CrsCode } from '../crs.js';

export interface SourceFeature {
  properties: Record<string, unknown>;
  geometry: Geometry | null;
}

export interface SourceFile {
  format: 'GeoJSON' | 'KML' | 'shapefile' | 'CSV';
  features: SourceFeature[];
  /** The CRS the file states (a .prj, a `crs` member or column); undefined when it states none. */
  crs: CrsCode | undefined;
  /** What of the file was left out, and why (a .zip's layer of points). */
  notes?: string[];
}
