// How a norm or a filling fails: never an exception, always an answer that says why.

export type NormFailure = {
  /** not-applicable: the law sets no norm here; not-determinable: the stored data do not decide it. */
  error: 'not-applicable' | 'not-determinable';
  message: string;
};

export const notApplicable = (message: string): NormFailure => ({ error: 'not-applicable', message });
export const notDeterminable = (message: string): NormFailure => ({ error: 'not-determinable', message });

export const isFailure = (outcome: object): outcome is NormFailure => 'error' in outcome;

/** The soil region decides the nitrogen norm and the working coefficients; the client states it. */
export const noSoilRegion = notDeterminable(
  'The field has no soil region: set b_soil_region on the field (klei, veen, loess, zand_nwc or zand_zuid) to determine its nitrogen norm and filling.',
);

/** A norm: its value (kg/ha) and the text saying where it comes from, or why there is none. */
export type NormOutcome = { normValue: number; normSource: string } | NormFailure;
