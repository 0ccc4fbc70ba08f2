// How a balance answers one field: its result, or why it cannot be calculated (docs/calculations.md).
import { FieldCalculationError } from './nitrogen-balance/inputs.js';

export interface FieldIdentity {
  b_id: string;
  b_area: number;
  b_bufferstrip: boolean;
}

/** A field in a balance's answer: `balance` its result, or null with the reference's message and a hint. */
export type FieldResult<B> = FieldIdentity & ({ balance: B } | { balance: null; errorMessage: string });

/** The farm answer's message when no field is in the timeframe. */
export const NO_FIELDS_MESSAGE = 'No fields in input';

/** The field with what `calculate` gives, or with the message of the FieldCalculationError it throws. */
export function fieldResult<B>(field: FieldIdentity, calculate: () => B): FieldResult<B> {
  const { b_id, b_area, b_bufferstrip } = field;
  // Literals, not `{ ...identity, balance }`: see calculations/inputs.ts withFertilizer.
  try {
    return { b_id, b_area, b_bufferstrip, balance: calculate() };
  } catch (error) {
    if (!(error instanceof FieldCalculationError)) throw error;
    return { b_id, b_area, b_bufferstrip, balance: null, errorMessage: `${error.message}. ${error.hint}` };
  }
}
