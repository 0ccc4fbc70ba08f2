// The filling of the phosphate norm, with the discount for organic-rich fertilizers (regulation "Stimuleren
// organische stofrijke meststoffen"): when they bring at least 20 kg P2O5/ha in the year, only a share of
// their phosphate counts, up to the field's phosphate norm.
import { D, sum, type Dec } from '../numbers.js';
import { filling, type ApplicationFilling, type FillingOutcome } from './filling.js';
import type { NormsApplication } from './inputs.js';
import type { FarmYear } from './records.js';
import { manureCodes, ORGANIC_RICH_THRESHOLD, organicRichGroups } from './tables.js';

/** The share of an application's phosphate that counts, when its product is organic-rich. */
export function organicRichFactor(code: string | null, farm: FarmYear): number | undefined {
  if (code === null) return undefined;
  return organicRichGroups.find((g) => g.p_type_rvo.includes(code) && (!g.requires_organic_certification || farm.organicCertified))?.factor;
}

/** Each application's phosphate applied (kg P2O5/ha) and, when its product is organic-rich, the share that counts. */
function phosphateItems(applications: NormsApplication[], farm: FarmYear) {
  return applications.map((a) => {
    // Only a missing content falls back to the table; a stated 0 stays 0.
    const code = a.fertilizer.p_type_rvo;
    const content = a.fertilizer.p_p_rt ?? (code === null ? null : manureCodes[farm.year].get(code)?.p_p_rt) ?? 0;
    return { p_app_id: a.p_app_id, applied: new D(a.p_app_amount).times(content).div(1000), factor: organicRichFactor(code, farm) };
  });
}

type PhosphateItem = ReturnType<typeof phosphateItems>[number];

const organicRichOf = (items: PhosphateItem[]) =>
  items.filter((item): item is PhosphateItem & { factor: number } => item.factor !== undefined);
const thresholdMet = (organicRich: PhosphateItem[]) => sum(organicRich.map((item) => item.applied)).gte(ORGANIC_RICH_THRESHOLD);

/** Whether the organic-rich fertilizers among `applications` (those of the year) bring enough phosphate for their discount. */
export const organicRichDiscountApplies = (applications: NormsApplication[], farm: FarmYear) =>
  thresholdMet(organicRichOf(phosphateItems(applications, farm)));

const kg = (value: Dec) => `${value.toFixed(2)}kg`;

/**
 * `applications`: those of the year, newest first; `budget`: the field's phosphate norm (0 when it has none),
 * the most phosphate that gets the discount.
 */
export function phosphateFilling(applications: NormsApplication[], farm: FarmYear, budget: number): FillingOutcome {
  const items = phosphateItems(applications, farm);
  const organicRich = organicRichOf(items);
  const discountApplies = thresholdMet(organicRich);

  const result = new Map<string, ApplicationFilling>();
  let left = new D(budget);
  // The smallest share first (compost before manure), newest first within a share.
  for (const item of [...organicRich].sort((a, b) => a.factor - b.factor)) {
    if (!discountApplies) {
      result.set(item.p_app_id, {
        p_app_id: item.p_app_id,
        normFilling: item.applied,
        normFillingDetails: 'OS-rijke meststof, minimumdrempel niet gehaald, 100% geteld.',
      });
      continue;
    }
    const discounted = D.min(item.applied, left);
    const share = discounted.times(item.factor);
    const rest = item.applied.minus(discounted);
    left = left.minus(discounted);
    const text = discounted.gt(0)
      ? `OS-rijke meststof (${item.factor * 100}% korting) draagt ${kg(share)} bij aan de norm.`
      : 'OS-rijke meststof, geen korting toegepast.';
    result.set(item.p_app_id, {
      p_app_id: item.p_app_id,
      normFilling: share.plus(rest),
      normFillingDetails: rest.gt(0) ? `${text} Plus ${kg(rest)} (100% geteld) boven de kortingslimiet.` : text,
    });
  }
  return filling(items.map((item) => result.get(item.p_app_id) ?? { p_app_id: item.p_app_id, normFilling: item.applied }));
}
