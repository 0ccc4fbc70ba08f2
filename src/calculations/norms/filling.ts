// What a filling (opvulling) answers: per application in the year, newest first, how much of the norm it
// fills (kg/ha, exact decimals), and the field total.
import { sum, type Dec } from '../numbers.js';
import type { NormFailure } from './errors.js';

export interface ApplicationFilling {
  p_app_id: string;
  normFilling: Dec;
  normFillingDetails?: string;
}

export type FillingOutcome = { normFilling: Dec; applicationFilling: ApplicationFilling[] } | NormFailure;

export const filling = (applicationFilling: ApplicationFilling[]): FillingOutcome => ({
  normFilling: sum(applicationFilling.map((a) => a.normFilling)),
  applicationFilling,
});
