// GeoJSON: a FeatureCollection, a Feature or a bare geometry, with the `crs` member of the 2008 specification when present.
import type { Geometry } from 'geojson';

const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'];
import { crsFromName } from '../crs.js';
import { CommandFailure } from '../failures.js';
import type { SourceFeature, SourceFile } from './source.js';

/** A GeoJSON geometry by its type; its coordinates are judged later, with the outline. */
const isGeometry = (value: unknown): value is Geometry => isObject(value) && GEOMETRY_TYPES.includes(String(value.type));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function feature(value: unknown, where: string): SourceFeature {
  if (!isObject(value) || value.type !== 'Feature') throw new CommandFailure(`${where} is not a GeoJSON Feature`);
  return { properties: isObject(value.properties) ? value.properties : {}, geometry: isGeometry(value.geometry) ? value.geometry : null };
}

function crsOf(json: Record<string, unknown>) {
  const name = isObject(json.crs) && isObject(json.crs.properties) ? json.crs.properties.name : undefined;
  if (name === undefined) return undefined;
  const crs = typeof name === 'string' ? crsFromName(name) : undefined;
  if (!crs) throw new CommandFailure(`the GeoJSON names a CRS this command does not know (${String(name)}): give it with --crs`);
  return crs;
}

export function readGeoJson(text: string): SourceFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CommandFailure(`the file is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(json) || typeof json.type !== 'string') throw new CommandFailure('the JSON is not GeoJSON: it has no "type"');
  const crs = crsOf(json);
  if (json.type === 'FeatureCollection') {
    if (!Array.isArray(json.features)) throw new CommandFailure('the FeatureCollection has no "features" array');
    return { format: 'GeoJSON', crs, features: json.features.map((f, i) => feature(f, `feature ${i + 1}`)) };
  }
  if (json.type === 'Feature') return { format: 'GeoJSON', crs, features: [feature(json, 'the Feature')] };
  if (!isGeometry(json)) throw new CommandFailure(`the JSON is not GeoJSON: its type is ${json.type}`);
  return { format: 'GeoJSON', crs, features: [{ properties: {}, geometry: json }] };
}
