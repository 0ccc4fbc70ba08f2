// Supply of N (positive, kg N/ha): fertilizers, fixation, deposition, mineralisation (docs/calculations.md).
import { mineralisationDefaults } from '../constants.js';
import { dateIn, daysBetween, isLeapYear, maxDate, minDate, yearOf, type Timeframe } from '../dates.js';
import { total, type Item } from '../items.js';
import { D, dec, type Dec, sum } from '../numbers.js';
import type { BalanceApplication, BalanceCultivation } from './inputs.js';
import { isGrass } from './land-use.js';

export const FERTILIZER_GROUPS = ['mineral', 'manure', 'compost', 'other'] as const;
export type FertilizerGroup = (typeof FERTILIZER_GROUPS)[number];

export const groupOf = (application: BalanceApplication): FertilizerGroup => application.fertilizer.p_type ?? 'other';

export type Grouped = Record<FertilizerGroup, Item[]>;

export function groupApplications(applications: BalanceApplication[], value: (a: BalanceApplication) => Dec): Grouped {
  const groups: Grouped = { mineral: [], manure: [], compost: [], other: [] };
  for (const application of applications) groups[groupOf(application)].push({ id: application.p_app_id, value: value(application) });
  return groups;
}

export const fertilizerSupply = (applications: BalanceApplication[]) =>
  groupApplications(applications, (a) => new D(a.p_app_amount).times(dec(a.fertilizer.p_n_rt)).div(1000));

export const fixation = (cultivations: BalanceCultivation[]): Item[] =>
  cultivations.map((c) => ({ id: c.b_lu, value: dec(c.crop.b_n_fixation) }));

export const deposition = (annual: number, fraction: Dec): Dec => new D(annual).times(fraction);

/** Per calendar year of the field-local timeframe: the soil's default, pro-rated by days (364 for a year ending 31 December). */
export function mineralisation(
  soilType: string,
  local: Timeframe,
  cultivations: BalanceCultivation[],
): Array<{ year: number; value: Dec }> {
  const defaults = mineralisationDefaults.get(soilType);
  const years = [];
  for (let year = yearOf(local.start); year <= yearOf(local.end); year++) {
    const grassland = cultivations.some(
      (c) => isGrass(c) && c.b_lu_start <= dateIn(year, '07-15') && (c.b_lu_end ?? '9999-12-31') >= dateIn(year, '05-15'),
    );
    const annual = defaults ? (grassland ? defaults.grassland : defaults.arable) : 0;
    const from = maxDate(dateIn(year, '01-01'), local.start);
    const to = minDate(dateIn(year + 1, '01-01'), local.end);
    if (from < to) years.push({ year, value: new D(annual).times(daysBetween(to, from)).div(isLeapYear(year) ? 366 : 365) });
  }
  return years;
}

export const groupsTotal = (groups: Grouped): Dec => sum(FERTILIZER_GROUPS.map((g) => total(groups[g])));
