// The size bound of a GeoJSON page of fields (docs/api.md): the features of one page take at most
// MAX_FEATURES_BYTES, measured before any geometry is loaded.
import { MAX_LIMIT } from '../../http/pagination.js';

/**
 * What the features of one GeoJSON page may take, serialized (docs/api.md): a page stops before the
 * field that would take it past this, so that no answer holds more than a few MB whatever its limit.
 */
export const MAX_FEATURES_BYTES = 4 * 1024 * 1024;

/**
 * A geometry of at most this many bytes is read along with the sizes: those of a whole page stay under
 * MAX_FEATURES_BYTES, and a page of ordinary fields (a few hundred positions each) takes one query.
 */
export const INLINE_GEOMETRY_BYTES = Math.floor(MAX_FEATURES_BYTES / MAX_LIMIT);

/**
 * The bytes of a field as a Feature, its geometry counted as its stored JSON text: never shorter than
 * the geometry serialized here (the same numbers, with a space after each comma and colon).
 */
export function featureBytes(field: { b_id: string }, geometryBytes: number): number {
  const withoutGeometry = JSON.stringify({ type: 'Feature', id: field.b_id, geometry: null, properties: field });
  return Buffer.byteLength(withoutGeometry) - 'null'.length + geometryBytes;
}

/**
 * How many of these features, in order, fit in MAX_FEATURES_BYTES; at least one, so that every field can
 * be read (one of 10,000 positions, the most a geometry may have, takes about half a MB).
 */
export function featuresThatFit(sizes: number[]): number {
  let used = 0;
  for (const [index, size] of sizes.entries()) {
    used += size + 1; // and the comma between features
    if (used > MAX_FEATURES_BYTES && index > 0) return index;
  }
  return sizes.length;
}
