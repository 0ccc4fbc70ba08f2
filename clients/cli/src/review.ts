// The review before writing: each parcel matched to a field of the farm (by source identifier first, else by
// an overlap of at least 0.9) and classed as new, unchanged or changed; the farm's other fields are only in Akker.
import type { FieldFeature } from './akker-reads.js';
import { boxOf, intersectionOverUnion, type Box } from './overlap.js';
import { sameOutline, type Outline } from './outline.js';
import type { Parcel } from './parcels.js';

/** The least intersection over union at which a parcel and a field without a common source identifier are one. */
export const MIN_OVERLAP = 0.9;
/** Positions closer than this, in degrees (about 1 cm), are the same: an export in RD New read back differs in the last digits. */
export const SAME_POSITION = 1e-7;

export type Difference = 'b_name' | 'b_id_source' | 'b_start' | 'b_end' | 'b_geometry';

export type Reviewed =
  /** `field`: the farm's field with the parcel's source id, kept as it is (never only in Akker). */
  | { parcel: Parcel; status: 'refused'; reason: string; field?: FieldFeature }
  | { parcel: Parcel & { outline: Outline }; status: 'new' }
  | {
      parcel: Parcel & { outline: Outline };
      status: 'unchanged' | 'changed';
      field: FieldFeature;
      matchedBy: 'source id' | 'overlap';
      overlap: number | undefined;
      differences: Difference[];
    };

export interface Review {
  parcels: Reviewed[];
  onlyInAkker: FieldFeature[];
}

function differences(parcel: Parcel & { outline: Outline }, field: FieldFeature): Difference[] {
  const stored = field.properties;
  const found: Difference[] = [];
  // A made-up name never replaces the one a field has: the farmer may have named it in Akker since.
  if (!parcel.nameMadeUp && parcel.name !== stored.b_name) found.push('b_name');
  if (parcel.sourceId !== null && parcel.sourceId !== stored.b_id_source) found.push('b_id_source');
  if (parcel.start !== stored.b_start) found.push('b_start');
  if (parcel.end !== undefined && parcel.end !== stored.b_end) found.push('b_end');
  if (!sameOutline(parcel.outline, field.geometry as Outline, SAME_POSITION)) found.push('b_geometry');
  return found;
}

export function review(parcels: Parcel[], fields: FieldFeature[]): Review {
  const unmatched = new Map(fields.map((field) => [field.id, field]));
  const bySourceId = new Map(fields.filter((f) => f.properties.b_id_source !== null).map((f) => [f.properties.b_id_source!, f]));
  const boxes = new Map<string, Box>(fields.map((field) => [field.id, boxOf(field.geometry as Outline)]));
  const matched = (
    parcel: Parcel & { outline: Outline },
    field: FieldFeature,
    matchedBy: 'source id' | 'overlap',
    overlap?: number,
  ): Reviewed => {
    unmatched.delete(field.id);
    const found = differences(parcel, field);
    return { parcel, status: found.length === 0 ? 'unchanged' : 'changed', field, matchedBy, overlap, differences: found };
  };
  const reviewed = parcels.map((parcel): Reviewed | (Parcel & { outline: Outline }) => {
    const bySource = parcel.sourceId === null ? undefined : bySourceId.get(parcel.sourceId);
    if (parcel.refused !== undefined || parcel.outline === undefined) {
      const field = bySource && unmatched.delete(bySource.id) ? bySource : undefined;
      return { parcel, status: 'refused', reason: parcel.refused ?? 'no outline', ...(field ? { field } : {}) };
    }
    const withOutline = { ...parcel, outline: parcel.outline };
    if (bySource && unmatched.has(bySource.id)) return matched(withOutline, bySource, 'source id');
    return withOutline;
  });
  // Overlap second, so that a field another parcel claims by its source identifier is not taken first.
  const final = reviewed.map((entry): Reviewed => {
    if ('status' in entry) return entry;
    const box = boxOf(entry.outline);
    let best: { field: FieldFeature; overlap: number } | undefined;
    for (const field of unmatched.values()) {
      // Two different source identifiers are two different parcels, however much they overlap.
      if (entry.sourceId !== null && field.properties.b_id_source !== null) continue;
      const overlap = intersectionOverUnion(entry.outline, field.geometry as Outline, [box, boxes.get(field.id)!]);
      if (overlap >= MIN_OVERLAP && overlap > (best?.overlap ?? 0)) best = { field, overlap };
    }
    return best ? matched(entry, best.field, 'overlap', best.overlap) : { parcel: entry, status: 'new' };
  });
  return { parcels: final, onlyInAkker: [...unmatched.values()] };
}
