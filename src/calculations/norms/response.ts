// The norms of a field as numbers on the wire: each figure converted from its exact decimal once, at the end.
import type { NormFailure, NormOutcome } from './errors.js';
import { isFailure } from './errors.js';
import { mapNorms, type FieldNorms, type NormResult, type PerNorm } from './field.js';

export type FillingResponse =
  { normFilling: number; applicationFilling: Array<{ p_app_id: string; normFilling: number; normFillingDetails?: string }> } | NormFailure;

export interface FieldNormsResponse {
  b_id: string;
  b_area: number;
  norms: PerNorm<NormOutcome>;
  filling: PerNorm<FillingResponse>;
  room: PerNorm<number | null>;
}

const fillingResponse = ({ filling }: NormResult): FillingResponse =>
  isFailure(filling)
    ? filling
    : {
        normFilling: filling.normFilling.toNumber(),
        applicationFilling: filling.applicationFilling.map((a) => ({
          p_app_id: a.p_app_id,
          normFilling: a.normFilling.toNumber(),
          ...(a.normFillingDetails !== undefined && { normFillingDetails: a.normFillingDetails }),
        })),
      };

export const fieldNormsResponse = (field: FieldNorms): FieldNormsResponse => ({
  b_id: field.b_id,
  b_area: field.b_area,
  norms: mapNorms(field.norms, (r) => r.norm),
  filling: mapNorms(field.norms, fillingResponse),
  room: mapNorms(field.norms, (r) => (r.room === undefined ? null : r.room.toNumber())),
});
