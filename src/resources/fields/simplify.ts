// The geometry a read of fields answers (`?geometry=`): as sent, simplified to a bounded number of
// positions (computed when the field is written, store.ts), or none. Simplification is Douglas–Peucker, refined point by point from the coarsest
// triangle, so that it can stop at a cap of positions as well as at a tolerance.
import type { FieldGeometry, Position } from '../../db/schema.js';
import { findCrossing } from './ring-crossing.js';

export const GEOMETRY_VARIANTS = ['full', 'simplified', 'none'] as const;
export type GeometryVariant = (typeof GEOMETRY_VARIANTS)[number];

/** The most positions a simplified ring has, its closing one included. */
export const SIMPLIFIED_RING_POSITIONS = 100;
/** How far (m) a dropped position may lie from the simplified ring, unless the cap comes first. */
export const SIMPLIFY_TOLERANCE_METRES = 1;

type Ring = Position[];

/** Metres per degree of latitude on the sphere of @turf/area. */
const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

/** Distance (m) from p to the segment a–b, in a plane around the ring: close enough at the size of a field. */
function distanceToSegment([px, py]: Position, [ax, ay]: Position, [bx, by]: Position): number {
  const [dx, dy] = [bx - ax, by - ay];
  const squared = dx * dx + dy * dy;
  const t = squared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / squared));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** A part of the ring between two kept positions, and its position farthest from their segment (-1 when none). */
interface Span {
  from: number;
  to: number;
  start: Position;
  end: Position;
  farthest: number;
  point: Position;
  distance: number;
}

/**
 * The ring with at most `maxPositions` positions: from its first position, the one farthest from it and
 * the one farthest from both, the farthest remaining position is added while it lies beyond `tolerance`.
 * Positions are kept, never moved, in their order: the ring stays closed and keeps its direction.
 */
function simplifyRing(ring: Ring, tolerance: number, maxPositions: number): Ring {
  const [first] = ring;
  if (first === undefined) return ring;
  const scale = Math.cos((first[1] * Math.PI) / 180) * METRES_PER_DEGREE;
  const plane = ring.map(([lon, lat]): Position => [(lon - first[0]) * scale, (lat - first[1]) * METRES_PER_DEGREE]);
  const span = (from: number, start: Position, to: number, end: Position): Span => {
    const found: Span = { from, to, start, end, farthest: -1, point: start, distance: -1 };
    for (const [offset, point] of plane.slice(from + 1, to).entries()) {
      const distance = distanceToSegment(point, start, end);
      if (distance > found.distance) Object.assign(found, { farthest: from + 1 + offset, point, distance });
    }
    return found;
  };
  const kept = new Set([0, ring.length - 1]);
  const spans: Span[] = [];
  const split = ({ from, to, start, end, farthest, point }: Span) => {
    kept.add(farthest);
    spans.push(span(from, start, farthest, point), span(farthest, point, to, end));
  };
  // The first split is the position farthest from the first one: the ring closes on it, so its segment is a point.
  const origin: Position = [0, 0];
  split(span(0, origin, ring.length - 1, origin));
  // With the closing position, kept.size 4 is a triangle, the least a ring may be.
  while (kept.size < maxPositions) {
    const widest = spans.reduce((best, s) => (s.distance > best.distance ? s : best));
    if (widest.farthest === -1 || (kept.size >= 4 && widest.distance <= tolerance)) break;
    spans.splice(spans.indexOf(widest), 1);
    split(widest);
  }
  return ring.filter((_, index) => kept.has(index));
}

/**
 * The rings of a polygon simplified. Should they then cross, they are simplified again as finely as the
 * cap allows: a ring within the cap then keeps every position that makes a corner, as it was sent.
 */
function simplifyPolygon(rings: Ring[]): Ring[] {
  const coarse = rings.map((ring) => simplifyRing(ring, SIMPLIFY_TOLERANCE_METRES, SIMPLIFIED_RING_POSITIONS));
  if (findCrossing(coarse) === undefined) return coarse;
  return rings.map((ring) => simplifyRing(ring, 0, SIMPLIFIED_RING_POSITIONS));
}

export function simplifyGeometry(geometry: FieldGeometry): FieldGeometry {
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: simplifyPolygon(geometry.coordinates) }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map(simplifyPolygon) };
}
