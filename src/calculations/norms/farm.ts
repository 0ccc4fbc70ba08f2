// The farm's norms for a year: the sums of norm × area and filling × area over the fields whose every norm
// and filling could be determined, each rounded half-up to whole kilograms, and the room between them.
import { D, sum, type Dec } from '../numbers.js';
import { isFailure, type NormFailure } from './errors.js';
import { firstFailure, mapNorms, normsOf, type FieldNorms, type NormResult, type PerNorm } from './field.js';
import type { NormYear } from './tables.js';

/** Figures in kg N (kg P2O5 for phosphate) for the whole farm. */
export interface FarmNorms {
  norms: PerNorm<number>;
  filling: PerNorm<number>;
  room: PerNorm<number>;
  fieldsInTotals: string[];
  fieldsLeftOut: Array<{ b_id: string } & NormFailure>;
}

const wholeKg = (value: Dec) => value.toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber();

/** A result of a field in the totals: its norm and filling both succeeded. */
const figures = (r: NormResult | undefined) => {
  if (!r || isFailure(r.norm) || isFailure(r.filling)) throw new Error('a field in the farm totals has a failed norm');
  return { value: new D(r.norm.normValue), filling: r.filling.normFilling };
};

/** `fields`: the fields of the farm in the year. */
export function farmNorms(fields: FieldNorms[], year: NormYear): FarmNorms {
  const counted: FieldNorms[] = [];
  const fieldsLeftOut: FarmNorms['fieldsLeftOut'] = [];
  for (const field of fields) {
    const reason = firstFailure(field);
    if (reason) fieldsLeftOut.push({ b_id: field.b_id, ...reason });
    else counted.push(field);
  }
  const totals = mapNorms(normsOf(year), (name) => {
    const perField = counted.map((f) => ({ area: f.b_area, ...figures(f.norms[name]) }));
    const norm = wholeKg(sum(perField.map((f) => f.value.times(f.area))));
    return { norm, filling: wholeKg(sum(perField.map((f) => f.filling.times(f.area)))) };
  });
  return {
    norms: mapNorms(totals, (t) => t.norm),
    filling: mapNorms(totals, (t) => t.filling),
    room: mapNorms(totals, (t) => t.norm - t.filling),
    fieldsInTotals: counted.map((f) => f.b_id),
    fieldsLeftOut,
  };
}
