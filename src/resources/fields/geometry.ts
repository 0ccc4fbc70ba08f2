// GeoJSON Polygon / MultiPolygon of a field: size limits, validation, area, centroid, perimeter.
import turfArea from '@turf/area';
import turfCenterOfMass from '@turf/center-of-mass';
import type { FieldGeometry, Position } from '../../db/schema.js';
import { forEachEdge } from './edges.js';
import { findCrossing } from './ring-crossing.js';

export const MAX_COORDINATES = 10_000;
/** A ring has at least 4 positions, so no geometry within MAX_COORDINATES has more rings than this. */
export const MAX_RINGS = MAX_COORDINATES / 4;
/** Every polygon has an outer ring. */
export const MAX_POLYGONS = MAX_RINGS;

type Ring = Position[];

export interface GeometryProblem {
  path: Array<string | number>;
  message: string;
}

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : undefined);

/**
 * Whether `coordinates` hold polygons (a MultiPolygon) rather than rings. A type that is neither is
 * judged by how deep its first position sits, so that size is checked before the type.
 */
function holdsPolygons(type: string, coordinates: unknown[]): boolean {
  if (type === 'MultiPolygon') return true;
  if (type === 'Polygon') return false;
  return Array.isArray(first(first(coordinates[0])));
}

/**
 * Too many polygons, rings or positions (every entry of every ring, holes included). Measured from
 * the arrays' lengths, polygons first and positions last, so a body of a million empty polygons is
 * refused after one comparison and no count costs more than MAX_POLYGONS + MAX_RINGS steps.
 */
export function sizeProblem(type: string, coordinates: unknown[]): GeometryProblem | undefined {
  const polygons = holdsPolygons(type, coordinates) ? coordinates : [coordinates];
  if (polygons.length > MAX_POLYGONS) {
    return { path: ['coordinates'], message: `has ${polygons.length} polygons; at most ${MAX_POLYGONS} are allowed` };
  }
  const ringLists = polygons.filter((polygon): polygon is unknown[] => Array.isArray(polygon));
  const rings = ringLists.reduce((sum, polygon) => sum + polygon.length, 0);
  if (rings > MAX_RINGS) {
    return {
      path: ['coordinates'],
      message: `has ${rings} rings; at most ${MAX_RINGS} are allowed (each needs at least 4 of the ${MAX_COORDINATES} positions)`,
    };
  }
  let positions = 0;
  for (const polygon of ringLists) for (const ring of polygon) if (Array.isArray(ring)) positions += ring.length;
  if (positions > MAX_COORDINATES) {
    return {
      path: ['coordinates'],
      message: `has ${positions} coordinates; at most ${MAX_COORDINATES} are allowed (all rings, holes included)`,
    };
  }
  return undefined;
}

function ringProblem(ring: unknown, path: Array<string | number>): GeometryProblem | undefined {
  if (!Array.isArray(ring)) return { path, message: 'must be a ring: an array of positions' };
  if (ring.length === 0) return { path, message: 'a ring must not be empty: it needs at least 4 positions' };
  for (let i = 0; i < ring.length; i++) {
    const position: unknown = ring[i];
    if (!Array.isArray(position) || position.length !== 2 || !position.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      return { path: [...path, i], message: 'must be a position [longitude, latitude] of two numbers' };
    }
    const [lon, lat] = position as Position;
    if (lon < -180 || lon > 180) return { path: [...path, i, 0], message: 'longitude must be between -180 and 180' };
    if (lat < -90 || lat > 90) return { path: [...path, i, 1], message: 'latitude must be between -90 and 90' };
  }
  if (ring.length < 4) return { path, message: 'a ring needs at least 4 positions' };
  const [start, end] = [ring[0] as Position, ring[ring.length - 1] as Position];
  if (start[0] !== end[0] || start[1] !== end[1]) return { path, message: 'a ring must be closed: its last position equals its first' };
  return undefined;
}

/**
 * An edge more than 180° of longitude long: it can only mean the short way across the antimeridian, but
 * as GeoJSON it runs the long way round the earth (an area of thousands of hectares for a field of a
 * few). RFC 7946 §3.1.9 asks for such a polygon cut in two at the antimeridian.
 */
function antimeridianProblem(ring: Ring, path: Array<string | number>): GeometryProblem | undefined {
  let previous: Position | undefined;
  for (const [i, position] of ring.entries()) {
    if (previous !== undefined && Math.abs(position[0] - previous[0]) > 180) {
      return {
        path: [...path, i],
        message:
          'an edge must not cross the antimeridian (180° of longitude): cut the polygon there into a MultiPolygon of one part on each side (RFC 7946 §3.1.9)',
      };
    }
    previous = position;
  }
  return undefined;
}

function polygonProblem(polygon: unknown, path: Array<string | number>): GeometryProblem | undefined {
  if (!Array.isArray(polygon)) return { path, message: 'must be a polygon: an array of rings' };
  if (polygon.length === 0) return { path, message: 'a polygon must not be empty: it needs an outer ring' };
  for (let i = 0; i < polygon.length; i++) {
    const problem = ringProblem(polygon[i], [...path, i]) ?? antimeridianProblem(polygon[i] as Ring, [...path, i]);
    if (problem) return problem;
  }
  const crossing = findCrossing(polygon as Ring[]);
  if (crossing === undefined) return undefined;
  const message =
    crossing.other === undefined
      ? 'a ring must not cross or touch itself'
      : crossing.other === 0
        ? 'a hole must not cross the outer ring'
        : `a hole must not cross another hole (ring ${crossing.other})`;
  return { path: [...path, crossing.ring], message };
}

/**
 * The first reason a geometry is not a valid Polygon or MultiPolygon, or undefined when it is one:
 * size first, then type, then each polygon in turn. It stops at the first failure, so its cost is
 * bounded by the size limits whatever the body holds.
 */
export function geometryProblem(geometry: { type: string; coordinates: unknown[] }): GeometryProblem | undefined {
  const { type, coordinates } = geometry;
  const tooLarge = sizeProblem(type, coordinates);
  if (tooLarge) return tooLarge;
  if (type === 'Polygon') return polygonProblem(coordinates, ['coordinates']);
  if (type !== 'MultiPolygon') return { path: ['type'], message: 'must be Polygon or MultiPolygon' };
  if (coordinates.length === 0) return { path: ['coordinates'], message: 'must be a non-empty array of polygons' };
  for (let i = 0; i < coordinates.length; i++) {
    const problem = polygonProblem(coordinates[i], ['coordinates', i]);
    if (problem) return problem;
  }
  return undefined;
}

const polygonsOf = (geometry: FieldGeometry): Ring[][] => (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates);

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Hectares on the sphere of @turf/area (radius 6,371,008.8 m), 2 decimals. */
export const areaInHectares = (geometry: FieldGeometry): number => round2(turfArea(geometry) / 10_000);

/** The area-weighted centroid [lon, lat]: the mean of each polygon's centre of mass, weighted by its area. */
export function centroid(geometry: FieldGeometry): [number, number] {
  let weight = 0;
  let lon = 0;
  let lat = 0;
  for (const rings of polygonsOf(geometry)) {
    const polygon = { type: 'Polygon' as const, coordinates: rings };
    const area = turfArea(polygon);
    const [x, y] = turfCenterOfMass(polygon).geometry.coordinates as Position;
    weight += area;
    lon += x * area;
    lat += y * area;
  }
  if (weight === 0) {
    // No area to weigh by: the first position stands for the geometry.
    const position = polygonsOf(geometry)[0]?.[0]?.[0];
    if (position === undefined) throw new Error('A field geometry without positions passed validation');
    return position;
  }
  return [lon / weight, lat / weight];
}

const EARTH_RADIUS_M = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

function haversine([lon1, lat1]: Position, [lon2, lat2]: Position): number {
  const a =
    Math.sin(radians(lat2 - lat1) / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(radians(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
}

/** Length of every ring, holes included, in metres. */
export function perimeterInMetres(geometry: FieldGeometry): number {
  let length = 0;
  for (const rings of polygonsOf(geometry)) for (const ring of rings) forEachEdge(ring, (from, to) => (length += haversine(from, to)));
  return length;
}

/** The reference's guess when a client does not say (docs/calculations.md). */
export function looksLikeBufferStrip(name: string, geometry: FieldGeometry, areaHa: number): boolean {
  if (/buffer/i.test(name)) return true;
  if (areaHa >= 2.5) return false;
  const areaM2 = turfArea(geometry);
  return areaM2 > 0 && perimeterInMetres(geometry) / Math.sqrt(areaM2) >= 20;
}
