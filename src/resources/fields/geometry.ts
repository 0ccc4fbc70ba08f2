// GeoJSON Polygon / MultiPolygon of a field: counting, validation, area, centroid, perimeter.
import turfArea from '@turf/area';
import turfCenterOfMass from '@turf/center-of-mass';
import type { FieldGeometry } from '../../db/schema.js';
import { findCrossing } from './ring-crossing.js';

export const MAX_COORDINATES = 10_000;

type Position = [number, number];
type Ring = Position[];

/**
 * Every [longitude, latitude] position of every ring, holes included. Walks the
 * arrays without looking at anything else, so it is the first and cheapest check.
 */
export function countPositions(coordinates: unknown): number {
  let count = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value: coordinates, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (!Array.isArray(value)) continue;
    if (typeof value[0] === 'number') count += 1;
    else if (depth < 3) for (const item of value) stack.push({ value: item, depth: depth + 1 });
  }
  return count;
}

export interface GeometryProblem {
  path: Array<string | number>;
  message: string;
}

function ringProblems(ring: unknown, path: Array<string | number>): GeometryProblem[] {
  if (!Array.isArray(ring)) return [{ path, message: 'must be a ring: an array of positions' }];
  for (let i = 0; i < ring.length; i++) {
    const position: unknown = ring[i];
    if (!Array.isArray(position) || position.length !== 2 || !position.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      return [{ path: [...path, i], message: 'must be a position [longitude, latitude] of two numbers' }];
    }
    const [lon, lat] = position as Position;
    if (lon < -180 || lon > 180) return [{ path: [...path, i, 0], message: 'longitude must be between -180 and 180' }];
    if (lat < -90 || lat > 90) return [{ path: [...path, i, 1], message: 'latitude must be between -90 and 90' }];
  }
  if (ring.length < 4) return [{ path, message: 'a ring needs at least 4 positions' }];
  const [first, last] = [ring[0] as Position, ring[ring.length - 1] as Position];
  if (first[0] !== last[0] || first[1] !== last[1]) return [{ path, message: 'a ring must be closed: its last position equals its first' }];
  return [];
}

function polygonProblems(polygon: unknown, path: Array<string | number>): GeometryProblem[] {
  if (!Array.isArray(polygon) || polygon.length === 0) return [{ path, message: 'must be a polygon: a non-empty array of rings' }];
  const problems = polygon.flatMap((ring, i) => ringProblems(ring, [...path, i]));
  if (problems.length > 0) return problems;
  const crossing = findCrossing(polygon as Ring[]);
  if (crossing === undefined) return [];
  const message =
    crossing.other === undefined
      ? 'a ring must not cross or touch itself'
      : crossing.other === 0
        ? 'a hole must not cross the outer ring'
        : `a hole must not cross another hole (ring ${crossing.other})`;
  return [{ path: [...path, crossing.ring], message }];
}

/** Why a geometry is not a valid Polygon or MultiPolygon (empty when it is). */
export function geometryProblems(geometry: { type: string; coordinates: unknown }): GeometryProblem[] {
  const { type, coordinates } = geometry;
  if (type === 'Polygon') return polygonProblems(coordinates, ['coordinates']);
  if (type === 'MultiPolygon') {
    if (!Array.isArray(coordinates) || coordinates.length === 0)
      return [{ path: ['coordinates'], message: 'must be a non-empty array of polygons' }];
    return coordinates.flatMap((polygon, i) => polygonProblems(polygon, ['coordinates', i]));
  }
  return [{ path: ['type'], message: 'must be Polygon or MultiPolygon' }];
}

const polygonsOf = (geometry: FieldGeometry): Ring[][] =>
  geometry.type === 'Polygon' ? [geometry.coordinates as Ring[]] : (geometry.coordinates as Ring[][]);

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
  if (weight === 0) return polygonsOf(geometry)[0]![0]![0]!;
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
  for (const rings of polygonsOf(geometry))
    for (const ring of rings) for (let i = 1; i < ring.length; i++) length += haversine(ring[i - 1]!, ring[i]!);
  return length;
}

/** The reference's guess when a client does not say (CALCULATIONS.md 2.5). */
export function looksLikeBufferStrip(name: string, geometry: FieldGeometry, areaHa: number): boolean {
  if (/buffer/i.test(name)) return true;
  if (areaHa >= 2.5) return false;
  const areaM2 = turfArea(geometry);
  return areaM2 > 0 && perimeterInMetres(geometry) / Math.sqrt(areaM2) >= 20;
}
