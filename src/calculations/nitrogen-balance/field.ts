// The nitrogen balance of one field (docs/calculations.md): every term in decimals, rounded only at the end.
import type { Timeframe } from '../dates.js';
import { outputItems, total, type OutputItem } from '../items.js';
import { type Dec, roundOutput } from '../numbers.js';
import { fertilizerAmmonia, nitrateLeaching } from './emission.js';
import type { BalanceCultivation, BalanceField } from './inputs.js';
import { landUseClass } from './land-use.js';
import { harvestRemoval, harvestsInOrder, residueAmmonia, residueRemoval } from './removal.js';
import { combineSoil } from './soil.js';
import { deposition, FERTILIZER_GROUPS, fertilizerSupply, fixation, groupsTotal, mineralisation, type Grouped } from './supply.js';
import { target } from './target.js';
import { fieldTimeframe, overlapFraction } from './timeframe.js';
type GroupedOutput = { total: number } & Record<(typeof FERTILIZER_GROUPS)[number], { total: number; applications: OutputItem[] }>;

export interface FieldBalance {
  b_id: string;
  balance: number;
  supply: {
    total: number;
    fertilizers: GroupedOutput;
    fixation: { total: number; cultivations: OutputItem[] };
    deposition: { total: number };
    mineralisation: { total: number; years?: Array<{ year: number; value: number }> };
  };
  removal: {
    total: number;
    harvests: { total: number; harvests: OutputItem[] };
    residues: { total: number; cultivations: OutputItem[] };
  };
  emission: {
    total: number;
    ammonia: { total: number; fertilizers: GroupedOutput; residues: { total: number; cultivations: OutputItem[] } };
    nitrate: { total: number };
  };
  target: number;
}

function grouped(groups: Grouped): GroupedOutput {
  const output = { total: roundOutput(groupsTotal(groups)) } as GroupedOutput;
  for (const group of FERTILIZER_GROUPS)
    output[group] = { total: roundOutput(total(groups[group])), applications: outputItems(groups[group]) };
  return output;
}

const emptyGroups = (): Grouped => ({ mineral: [], manure: [], compost: [], other: [] });

/** A buffer strip: the same shape, all zero, no lists, target 0 (4.0). */
function bufferStripBalance(b_id: string): FieldBalance {
  const none = { total: 0, cultivations: [] };
  return {
    b_id,
    balance: 0,
    supply: { total: 0, fertilizers: grouped(emptyGroups()), fixation: none, deposition: { total: 0 }, mineralisation: { total: 0 } },
    removal: { total: 0, harvests: { total: 0, harvests: [] }, residues: none },
    emission: { total: 0, ammonia: { total: 0, fertilizers: grouped(emptyGroups()), residues: none }, nitrate: { total: 0 } },
    target: 0,
  };
}

/** Cultivations in the order of the reference's lists: start date descending, then crop name. */
export const inListOrder = <C extends Pick<BalanceCultivation, 'b_lu_start' | 'crop'>>(cultivations: C[]): C[] =>
  [...cultivations].sort((a, b) =>
    a.b_lu_start !== b.b_lu_start ? (a.b_lu_start < b.b_lu_start ? 1 : -1) : a.crop.b_lu_name.localeCompare(b.crop.b_lu_name),
  );

/**
 * The balance of `field` over `timeframe` with `annualDeposition` kg N/ha/yr.
 * Throws FieldCalculationError when the field cannot be calculated (missing soil values, an organic fertilizer without method).
 */
export function fieldBalance(field: BalanceField, timeframe: Timeframe, annualDeposition: number): FieldBalance {
  if (field.b_bufferstrip) return bufferStripBalance(field.b_id);
  const soil = combineSoil(field.soilAnalyses, field.b_id);
  const local = fieldTimeframe(timeframe, field);
  const cultivations = inListOrder(field.cultivations);
  const applications = [...field.applications].sort((a, b) => (a.p_app_date < b.p_app_date ? 1 : a.p_app_date > b.p_app_date ? -1 : 0));

  const fertilizers = fertilizerSupply(applications);
  const fixed = fixation(cultivations);
  const deposited = deposition(annualDeposition, overlapFraction(timeframe, field));
  const mineralised = mineralisation(soil.b_soiltype_agr, local, cultivations);
  const supplyTotal = groupsTotal(fertilizers).plus(total(fixed)).plus(deposited).plus(total(mineralised));

  const harvested = harvestRemoval(harvestsInOrder(cultivations, field.harvests));
  const residuesRemoved = residueRemoval(cultivations, field.harvests);
  const removalTotal = total(harvested).plus(total(residuesRemoved));

  const ammoniaFertilizers = fertilizerAmmonia(applications, cultivations);
  const ammoniaResidues = residueAmmonia(cultivations, field.harvests);
  const ammoniaTotal = groupsTotal(ammoniaFertilizers).plus(total(ammoniaResidues));

  const balance = supplyTotal.plus(removalTotal).plus(ammoniaTotal);
  const nitrate: Dec = nitrateLeaching(balance, soil.b_soiltype_agr, soil.b_gwl_class, landUseClass(cultivations));
  const targetValue = target(soil.b_soiltype_agr, soil.b_gwl_class, cultivations, local);

  return {
    b_id: field.b_id,
    balance: roundOutput(balance),
    supply: {
      total: roundOutput(supplyTotal),
      fertilizers: grouped(fertilizers),
      fixation: { total: roundOutput(total(fixed)), cultivations: outputItems(fixed) },
      deposition: { total: roundOutput(deposited) },
      mineralisation: {
        total: roundOutput(total(mineralised)),
        years: mineralised.map((year) => ({ year: year.year, value: roundOutput(year.value) })),
      },
    },
    removal: {
      total: roundOutput(removalTotal),
      harvests: { total: roundOutput(total(harvested)), harvests: outputItems(harvested) },
      residues: { total: roundOutput(total(residuesRemoved)), cultivations: outputItems(residuesRemoved) },
    },
    emission: {
      total: roundOutput(ammoniaTotal.plus(nitrate)),
      ammonia: {
        total: roundOutput(ammoniaTotal),
        fertilizers: grouped(ammoniaFertilizers),
        residues: { total: roundOutput(total(ammoniaResidues)), cultivations: outputItems(ammoniaResidues) },
      },
      nitrate: { total: roundOutput(nitrate) },
    },
    target: roundOutput(targetValue),
  };
}
