// The effective organic matter (EOM) brought onto a field in the timeframe, kg EOM/ha (docs/calculations.md):
// by fertilizer applications, by cultivations and by the residues they leave. Each record counts in full,
// whatever its duration and the timeframe's length.
import type { Timeframe } from '../dates.js';
import { total, type Item } from '../items.js';
import { D, type Dec, sum } from '../numbers.js';
import type { OrganicMatterApplication, OrganicMatterCultivation } from './inputs.js';

export const FERTILIZER_GROUPS = ['manure', 'compost', 'other'] as const;
export type FertilizerGroup = (typeof FERTILIZER_GROUPS)[number];
export type Grouped = Record<FertilizerGroup, Item[]>;

export const groupsTotal = (groups: Grouped): Dec => sum(FERTILIZER_GROUPS.map((group) => total(groups[group])));

/** Mineral products that carry EOM, and products without a type, count as other: there is no mineral group. */
const groupOf = (type: OrganicMatterApplication['fertilizer']['p_type']): FertilizerGroup =>
  type === 'manure' || type === 'compost' ? type : 'other';

/** amount (kg/ha) × p_eom (g/kg) / 1000 per application; a product without p_eom is left out, one with 0 listed. */
export function fertilizerSupply(applications: OrganicMatterApplication[]): Grouped {
  const groups: Grouped = { manure: [], compost: [], other: [] };
  for (const application of applications) {
    const { p_eom, p_type } = application.fertilizer;
    if (p_eom === null) continue;
    groups[groupOf(p_type)].push({ id: application.p_app_id, value: new D(application.p_app_amount).times(p_eom).div(1000) });
  }
  return groups;
}

/** The crop's b_lu_eom per cultivation; crops without EOM (null or 0) are not listed. */
export const cultivationSupply = (cultivations: OrganicMatterCultivation[]): Item[] =>
  cultivations.flatMap(({ b_lu, crop }) => (crop.b_lu_eom ? [{ id: b_lu, value: new D(crop.b_lu_eom) }] : []));

/**
 * The crop's b_lu_eom_residue per cultivation that ends within the timeframe and whose residues are not
 * known to be removed (m_cropresidue true or null); a residue value of 0 is listed.
 */
export const residueSupply = (cultivations: OrganicMatterCultivation[], { start, end }: Timeframe): Item[] =>
  cultivations.flatMap(({ b_lu, b_lu_end, m_cropresidue, crop }) =>
    crop.b_lu_eom_residue !== null && m_cropresidue !== false && b_lu_end !== null && b_lu_end >= start && b_lu_end <= end
      ? [{ id: b_lu, value: new D(crop.b_lu_eom_residue) }]
      : [],
  );
