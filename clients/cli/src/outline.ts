// A field's outline: a GeoJSON Polygon or MultiPolygon, and what is done with one as a whole.
import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import rewind from '@turf/rewind';

export type Outline = Polygon | MultiPolygon;

/** The polygons of an outline, each as its rings. */
export const polygonsOf = (outline: Outline): Position[][][] => (outline.type === 'Polygon' ? [outline.coordinates] : outline.coordinates);

const isPosition = (value: unknown) =>
  Array.isArray(value) && value.length >= 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
const isRings = (value: unknown) => Array.isArray(value) && value.every((ring) => Array.isArray(ring) && ring.every(isPosition));

/** Why a polygon's coordinates are not rings of positions (a position of null, a ring that is a number …), or undefined. */
function coordinatesProblem(geometry: Polygon | MultiPolygon): string | undefined {
  const coordinates: unknown = geometry.coordinates;
  const fine = geometry.type === 'Polygon' ? isRings(coordinates) : Array.isArray(coordinates) && coordinates.every(isRings);
  return fine ? undefined : `has coordinates that are not rings of [x, y] positions of numbers (a ${geometry.type})`;
}

/** How deep collections may be nested in one another (KML nests MultiGeometry), beyond which a file is not read. */
const MAX_NESTING = 8;

/**
 * The outline a geometry of a file stands for, or why it stands for none: a polygon as it is, and the
 * polygons of a collection (KML's MultiGeometry) as one MultiPolygon.
 */
export function outlineOf(geometry: Geometry | null, depth = 0): Outline | string {
  if (geometry === null) return 'has no geometry';
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') return coordinatesProblem(geometry) ?? geometry;
  if (geometry.type === 'GeometryCollection') {
    if (depth >= MAX_NESTING || !Array.isArray(geometry.geometries))
      return 'has geometry collections nested too deep, or without geometries';
    const parts = geometry.geometries.map((part) => outlineOf(part, depth + 1));
    const refused = parts.find((part): part is string => typeof part === 'string');
    if (refused !== undefined) return refused;
    const polygons = (parts as Outline[]).flatMap(polygonsOf);
    if (polygons.length === 0) return 'has an empty geometry collection';
    return polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0]! } : { type: 'MultiPolygon', coordinates: polygons };
  }
  return `is a ${geometry.type}, not a Polygon or MultiPolygon`;
}

/** Every position of an outline converted with `convert`. */
export function mapPositions(outline: Outline, convert: (position: Position) => Position): Outline {
  const rings = (polygon: Position[][]) => polygon.map((ring) => ring.map(convert));
  return outline.type === 'Polygon'
    ? { type: 'Polygon', coordinates: rings(outline.coordinates) }
    : { type: 'MultiPolygon', coordinates: outline.coordinates.map(rings) };
}

/** The outline with its rings as RFC 7946 has them (outer counterclockwise, holes clockwise), as Akker's GeoJSON answers them. */
export const rightHanded = (outline: Outline): Outline => rewind(outline) as Outline;

/** The outline with its rings as a shapefile has them: outer clockwise, holes counterclockwise. */
export const leftHanded = (outline: Outline): Outline => rewind(outline, { reverse: true }) as Outline;

/** Whether two outlines have the same rings, position by position within `tolerance` degrees. */
export function sameOutline(a: Outline, b: Outline, tolerance: number): boolean {
  const [pa, pb] = [polygonsOf(a), polygonsOf(b)];
  if (pa.length !== pb.length) return false;
  return pa.every((rings, p) => {
    const other = pb[p]!;
    if (rings.length !== other.length) return false;
    return rings.every((ring, r) => {
      const otherRing = other[r]!;
      if (ring.length !== otherRing.length) return false;
      return ring.every((position, i) => {
        const [x, y] = otherRing[i]!;
        return Math.abs(position[0]! - x!) <= tolerance && Math.abs(position[1]! - y!) <= tolerance;
      });
    });
  });
}

/** Whether any position lies outside longitude -180..180, latitude -90..90: then the file is not in WGS 84. */
export const outsideLonLat = (outline: Outline): boolean =>
  polygonsOf(outline).some((rings) => rings.some((ring) => ring.some(([x, y]) => Math.abs(x!) > 180 || Math.abs(y!) > 90)));
