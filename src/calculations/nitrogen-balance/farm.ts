// The nitrogen balance of a farm: area-weighted means of the rounded field figures (docs/calculations.md).
import { NO_FIELDS_MESSAGE, type FieldResult as CalculatedField } from '../field-result.js';
import { D, type Dec, roundOutput, sum, ZERO } from '../numbers.js';
import type { FieldBalance } from './field.js';
import { FERTILIZER_GROUPS } from './supply.js';

export type FieldResult = CalculatedField<FieldBalance>;

type Groups = Record<(typeof FERTILIZER_GROUPS)[number], number> & { total: number };

export interface FarmBalance {
  balance: number;
  supply: { total: number; deposition: number; fixation: number; mineralisation: number; fertilizers: Groups };
  removal: { total: number; harvests: number; residues: number };
  emission: { total: number; ammonia: { total: number; residues: number; fertilizers: Groups }; nitrate: number };
  target: number;
  fields: FieldResult[];
  hasErrors: boolean;
  fieldErrorMessages: string[];
  errorMessage?: string;
}

function zeroFigures(): Omit<FarmBalance, 'fields' | 'hasErrors' | 'fieldErrorMessages'> {
  const groups = { total: 0, mineral: 0, manure: 0, compost: 0, other: 0 };
  return {
    balance: 0,
    supply: { total: 0, deposition: 0, fixation: 0, mineralisation: 0, fertilizers: { ...groups } },
    removal: { total: 0, harvests: 0, residues: 0 },
    emission: { total: 0, ammonia: { total: 0, residues: 0, fertilizers: { ...groups } }, nitrate: 0 },
    target: 0,
  };
}

/** Fields ordered by area, largest first, as the reference lists them. */
export function farmBalance(results: FieldResult[]): FarmBalance {
  const fields = [...results].sort((a, b) => b.b_area - a.b_area);
  const fieldErrorMessages = fields.flatMap((f) => ('errorMessage' in f ? [f.errorMessage] : []));
  if (fields.length === 0)
    return { ...zeroFigures(), fields, hasErrors: true, fieldErrorMessages: [NO_FIELDS_MESSAGE], errorMessage: NO_FIELDS_MESSAGE };

  const counted = fields.flatMap((f) => (f.balance !== null && !f.b_bufferstrip ? [{ area: new D(f.b_area), balance: f.balance }] : []));
  const area = sum(counted.map((f) => f.area));
  const weighted = (figure: (b: FieldBalance) => number): Dec => sum(counted.map((f) => f.area.times(figure(f.balance))));
  const mean = (figure: (b: FieldBalance) => number): Dec => (area.isZero() ? ZERO : weighted(figure).div(area));
  const meanOfGroups = (pick: (b: FieldBalance) => FieldBalance['supply']['fertilizers']) => {
    const groups = Object.fromEntries(FERTILIZER_GROUPS.map((g) => [g, mean((b) => pick(b)[g].total)])) as Record<
      (typeof FERTILIZER_GROUPS)[number],
      Dec
    >;
    // The total is the sum of the weighted group sums over the area, not the mean of the field totals.
    const groupTotal = area.isZero() ? ZERO : sum(FERTILIZER_GROUPS.map((g) => weighted((b) => pick(b)[g].total))).div(area);
    return {
      total: roundOutput(groupTotal),
      ...(Object.fromEntries(FERTILIZER_GROUPS.map((g) => [g, roundOutput(groups[g])])) as Record<
        (typeof FERTILIZER_GROUPS)[number],
        number
      >),
    };
  };

  const supply = mean((b) => b.supply.total);
  const removal = mean((b) => b.removal.total);
  const ammonia = mean((b) => b.emission.ammonia.total);
  return {
    balance: roundOutput(supply.plus(removal).plus(ammonia)),
    supply: {
      total: roundOutput(supply),
      deposition: roundOutput(mean((b) => b.supply.deposition.total)),
      fixation: roundOutput(mean((b) => b.supply.fixation.total)),
      mineralisation: roundOutput(mean((b) => b.supply.mineralisation.total)),
      fertilizers: meanOfGroups((b) => b.supply.fertilizers),
    },
    removal: {
      total: roundOutput(removal),
      harvests: roundOutput(mean((b) => b.removal.harvests.total)),
      residues: roundOutput(mean((b) => b.removal.residues.total)),
    },
    emission: {
      total: roundOutput(mean((b) => b.emission.total)),
      ammonia: {
        total: roundOutput(ammonia),
        residues: roundOutput(mean((b) => b.emission.ammonia.residues.total)),
        fertilizers: meanOfGroups((b) => b.emission.ammonia.fertilizers),
      },
      nitrate: roundOutput(mean((b) => b.emission.nitrate.total)),
    },
    target: roundOutput(mean((b) => b.target)),
    fields,
    hasErrors: fieldErrorMessages.length > 0,
    fieldErrorMessages,
  };
}
