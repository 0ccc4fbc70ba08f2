// The organic-matter balance of one field (docs/calculations.md): supply + degradation in decimals, every
// figure of the answer rounded on its own.
import type { Timeframe } from '../dates.js';
import { outputItems, total, type OutputItem } from '../items.js';
import { inListOrder } from '../nitrogen-balance/field.js';
import { roundOutput } from '../numbers.js';
import { degradation } from './degradation.js';
import type { OrganicMatterField } from './inputs.js';
import { organicMatterSoil } from './soil.js';
import { cultivationSupply, FERTILIZER_GROUPS, fertilizerSupply, groupsTotal, residueSupply, type Grouped } from './supply.js';

export interface OrganicMatterBalance {
  b_id: string;
  balance: number;
  supply: {
    total: number;
    fertilizers: { total: number } & Record<(typeof FERTILIZER_GROUPS)[number], { total: number; applications: OutputItem[] }>;
    cultivations: { total: number; cultivations: OutputItem[] };
    residues: { total: number; cultivations: OutputItem[] };
  };
  degradation: { total: number };
}

const fertilizerOutput = (groups: Grouped): OrganicMatterBalance['supply']['fertilizers'] => ({
  total: roundOutput(groupsTotal(groups)),
  manure: { total: roundOutput(total(groups.manure)), applications: outputItems(groups.manure) },
  compost: { total: roundOutput(total(groups.compost)), applications: outputItems(groups.compost) },
  other: { total: roundOutput(total(groups.other)), applications: outputItems(groups.other) },
});

/** A buffer strip: every figure 0, every list empty; nothing is read, so it never fails. */
function bufferStripBalance(b_id: string): OrganicMatterBalance {
  return {
    b_id,
    balance: 0,
    supply: {
      total: 0,
      fertilizers: fertilizerOutput({ manure: [], compost: [], other: [] }),
      cultivations: { total: 0, cultivations: [] },
      residues: { total: 0, cultivations: [] },
    },
    degradation: { total: 0 },
  };
}

/** The balance of `field` over `timeframe`; throws FieldCalculationError when soil values are missing. */
export function organicMatterBalance(field: OrganicMatterField, timeframe: Timeframe): OrganicMatterBalance {
  if (field.b_bufferstrip) return bufferStripBalance(field.b_id);
  const soil = organicMatterSoil(field);
  const cultivations = inListOrder(field.cultivations);
  const applications = [...field.applications].sort((a, b) => (a.p_app_date < b.p_app_date ? 1 : a.p_app_date > b.p_app_date ? -1 : 0));

  const fertilizers = fertilizerSupply(applications);
  const crops = cultivationSupply(cultivations);
  const residues = residueSupply(cultivations, timeframe);
  const supplyTotal = groupsTotal(fertilizers).plus(total(crops)).plus(total(residues));
  const degraded = degradation(soil, cultivations, timeframe);

  return {
    b_id: field.b_id,
    balance: roundOutput(supplyTotal.plus(degraded)),
    supply: {
      total: roundOutput(supplyTotal),
      fertilizers: fertilizerOutput(fertilizers),
      cultivations: { total: roundOutput(total(crops)), cultivations: outputItems(crops) },
      residues: { total: roundOutput(total(residues)), cultivations: outputItems(residues) },
    },
    degradation: { total: roundOutput(degraded) },
  };
}
