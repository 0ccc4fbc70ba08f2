// A page of a farm's fields as an RFC 7946 FeatureCollection: each field a Feature whose id is b_id,
// whose geometry is its boundary and whose properties are the field as the JSON list gives it.
import type { FieldGeometry, Position } from '../../db/schema.js';
import type { PageQuery } from '../../db/paging.js';
import { pagination } from '../../http/pagination.js';
import { forEachEdge } from './edges.js';
import type { FieldSummary } from './schemas.js';

type Ring = Position[];

/** Twice the signed planar area of a ring in longitude/latitude: positive when it runs counterclockwise. */
function signedArea(ring: Ring): number {
  let sum = 0;
  forEachEdge(ring, ([x1, y1], [x2, y2]) => (sum += x1 * y2 - x2 * y1));
  return sum;
}

/** The rings of a polygon by the right-hand rule (RFC 7946 §3.1.6): the outer ring counterclockwise, holes clockwise. */
function rightHanded(rings: Ring[]): Ring[] {
  return rings.map((ring, index) => {
    const area = signedArea(ring);
    const wrongWay = index === 0 ? area < 0 : area > 0;
    return wrongWay ? [...ring].reverse() : ring;
  });
}

/**
 * The geometry as RFC 7946 requires a producer to write it. A field keeps its boundary as it was sent,
 * with its rings in either direction, which a GeoJSON reader should take but need not.
 */
export function withRightHandRule(geometry: FieldGeometry): FieldGeometry {
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: rightHanded(geometry.coordinates) }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map(rightHanded) };
}

/** A field as a Feature takes it: its geometry null when the request asks for none. */
export type FieldWithGeometry = FieldSummary & { b_geometry: FieldGeometry | null };

/**
 * One page of fields as a FeatureCollection, with `pagination` (a foreign member, RFC 7946 §6.1) as the
 * JSON list has it, and where the next page starts: a page cut short by its size holds fewer than `limit`.
 */
export function featureCollection(fields: FieldWithGeometry[], page: PageQuery, total: number) {
  const next = page.offset + fields.length;
  return {
    type: 'FeatureCollection' as const,
    features: fields.map(({ b_geometry, ...properties }) => ({
      type: 'Feature' as const,
      id: properties.b_id,
      geometry: b_geometry && withRightHandRule(b_geometry),
      properties,
    })),
    pagination: {
      ...pagination(page, total),
      next_offset: next < total ? next : null,
      size_limited: fields.length < page.limit && next < total,
    },
  };
}
