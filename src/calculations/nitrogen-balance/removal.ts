// Removal of N (negative, kg N/ha): harvests and crop residues taken off (docs/calculations.md).
import { D, dec, type Dec, sum, ZERO } from '../numbers.js';
import type { BalanceCultivation, BalanceHarvest } from './inputs.js';
import type { Item } from '../items.js';

/** Harvests ordered per cultivation (cultivations in their order), each cultivation's by date descending. */
export function harvestsInOrder(
  cultivations: BalanceCultivation[],
  harvests: BalanceHarvest[],
): Array<BalanceHarvest & { cultivation: BalanceCultivation }> {
  return cultivations.flatMap((cultivation) =>
    harvests
      .filter((h) => h.b_lu === cultivation.b_lu)
      .sort((a, b) => (a.b_lu_harvest_date < b.b_lu_harvest_date ? 1 : a.b_lu_harvest_date > b.b_lu_harvest_date ? -1 : 0))
      // A literal, not `{ ...h, cultivation }` (see calculations/inputs.ts withFertilizer).
      .map(({ b_id_harvesting, b_lu, b_lu_harvest_date, b_lu_yield, b_lu_n_harvestable }) => ({
        b_id_harvesting,
        b_lu,
        b_lu_harvest_date,
        b_lu_yield,
        b_lu_n_harvestable,
        cultivation,
      })),
  );
}

export function harvestRemoval(ordered: Array<BalanceHarvest & { cultivation: BalanceCultivation }>): Item[] {
  return ordered.map((h) => {
    const yieldDm = h.b_lu_yield ?? h.cultivation.crop.b_lu_yield;
    const nContent = h.b_lu_n_harvestable ?? h.cultivation.crop.b_lu_n_harvestable;
    return { id: h.b_id_harvesting, value: dec(yieldDm).times(dec(nContent)).div(1000).neg() };
  });
}

/**
 * The cultivation's average yield over its harvests in the timeframe, or the catalogue yield without
 * harvests. `nullYieldAsZero`: the residue-ammonia quirk, where a harvest stored without a yield counts 0.
 */
function averageYield(cultivation: BalanceCultivation, harvests: BalanceHarvest[], nullYieldAsZero: boolean): Dec {
  const own = harvests.filter((h) => h.b_lu === cultivation.b_lu);
  if (own.length === 0) return dec(cultivation.crop.b_lu_yield);
  const yields = own.map((h) => (h.b_lu_yield !== null ? new D(h.b_lu_yield) : nullYieldAsZero ? ZERO : dec(cultivation.crop.b_lu_yield)));
  return sum(yields).div(own.length);
}

/** N in the residues: Ȳ / hi × (1 − hi) × N_residue / 1000 (0 when hi is 0). */
function residueN(cultivation: BalanceCultivation, averageYieldDm: Dec): Dec {
  const hi = dec(cultivation.crop.b_lu_hi);
  if (hi.isZero()) return ZERO;
  return averageYieldDm.div(hi).times(new D(1).minus(hi)).times(dec(cultivation.crop.b_lu_n_residue)).div(1000);
}

/** Residues removed from the field (m_cropresidue false); every cultivation is listed. */
export function residueRemoval(cultivations: BalanceCultivation[], harvests: BalanceHarvest[]): Item[] {
  return cultivations.map((c) => ({
    id: c.b_lu,
    value: c.m_cropresidue === false ? residueN(c, averageYield(c, harvests, false)).neg() : ZERO,
  }));
}

/** Ammonia from residues left on the field (m_cropresidue true); every cultivation is listed. */
export function residueAmmonia(cultivations: BalanceCultivation[], harvests: BalanceHarvest[]): Item[] {
  return cultivations.map((c) => {
    if (c.m_cropresidue !== true) return { id: c.b_lu, value: ZERO };
    const nResidue = dec(c.crop.b_lu_n_residue);
    const factor = D.min(D.max(nResidue.times(0.41).minus(5.42).div(100), 0), 1);
    return {
      id: c.b_lu,
      value: residueN(c, averageYield(c, harvests, true))
        .times(factor)
        .neg(),
    };
  });
}
