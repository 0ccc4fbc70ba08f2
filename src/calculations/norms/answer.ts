// The norms of a field as numbers on the wire: each figure converted from its exact decimal once, at the end.
import type { NormFailure, NormOutcome } from './errors.js';
import { isFailure } from './errors.js';
import type { FieldNorms, NormName } from './field.js';

export type FillingAnswer =
  { normFilling: number; applicationFilling: Array<{ p_app_id: string; normFilling: number; normFillingDetails?: string }> } | NormFailure;

export interface FieldNormsAnswer {
  b_id: string;
  b_area: number;
  norms: Partial<Record<NormName, NormOutcome>>;
  filling: Partial<Record<NormName, FillingAnswer>>;
  room: Partial<Record<NormName, number | null>>;
}

export function fieldNormsAnswer(field: FieldNorms): FieldNormsAnswer {
  const answer: FieldNormsAnswer = { b_id: field.b_id, b_area: field.b_area, norms: {}, filling: {}, room: {} };
  for (const [name, result] of Object.entries(field.norms) as Array<[NormName, FieldNorms['norms'][NormName]]>) {
    if (!result) continue;
    answer.norms[name] = result.norm;
    answer.filling[name] = isFailure(result.filling)
      ? result.filling
      : {
          normFilling: result.filling.normFilling.toNumber(),
          applicationFilling: result.filling.applicationFilling.map((a) => ({
            p_app_id: a.p_app_id,
            normFilling: a.normFilling.toNumber(),
            ...(a.normFillingDetails !== undefined && { normFillingDetails: a.normFillingDetails }),
          })),
        };
    answer.room[name] = result.room === undefined ? null : result.room.toNumber();
  }
  return answer;
}
