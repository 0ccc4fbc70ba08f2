// The reduction (korting) of the nitrogen norm: grassland renewed or destroyed in the year, or (on sand and
// loess) no catch crop after an arable main crop. A renewal or destruction outside its window leaves no norm.
import { dateIn, yearOf } from '../dates.js';
import { notApplicable, type NormFailure } from './errors.js';
import type { NormsCultivation } from './inputs.js';
import type { MainCrop } from './main-crop.js';
import type { FarmYear } from './records.js';
import {
  fromTable,
  GRASSLAND_CODES,
  nitrogenReductions,
  nitrogenStandards,
  SANDY_OR_LOESS,
  SEED_POTATO_CODES,
  type GrasslandReduction,
  type NitrogenTable,
  type SoilRegion,
} from './tables.js';

export type Reduction = { reduction: number; text: string } | NormFailure;

const NONE: Reduction = { reduction: 0, text: '.' };
const of = (rule: { reduction: number; normSource_suffix: string }): Reduction => ({
  reduction: rule.reduction,
  text: rule.normSource_suffix,
});

interface Situation {
  region: SoilRegion;
  inNvArea: boolean;
  farm: FarmYear;
  table: NitrogenTable;
}

/** Maize (also sweet corn) or a potato that is not a seed potato (the potato-control crop counts). */
function followsAsDestruction(code: string, table: NitrogenTable): boolean {
  const entry = table.firstEntry(code);
  if (!entry) return false;
  const name = entry.cultivation_rvo_table2;
  if (name.includes('mais')) return true;
  return entry.type === 'aardappel' && !name.includes('pootaardappelen') && !name.includes('uitgroeiteelt') && !SEED_POTATO_CODES.has(code);
}

function withinWindow(rule: GrasslandReduction, ended: string, s: Situation): Reduction | undefined {
  const window = rule.windows.find(
    (w) =>
      w.year === s.farm.year &&
      w.soil_regions.includes(s.region) &&
      (w.derogation === null || w.derogation === s.farm.derogation) &&
      (w.nv_area === null || w.nv_area === s.inNvArea),
  );
  if (!window) return undefined;
  const inside = ended >= dateIn(s.farm.year, window.from) && ended <= dateIn(s.farm.year, window.to);
  return inside ? of(rule) : notApplicable(window.message_if_outside);
}

/** From 2026 a grassland followed by maize or potatoes is taken for a catch crop when it was sown from August of the year before. */
const takenForCatchCrop = (previous: NormsCultivation, s: Situation) =>
  s.farm.year === 2026 &&
  (s.table.firstEntry(previous.b_lu_catalogue)?.is_vanggewas === true ||
    (yearOf(previous.b_lu_start) === s.farm.year - 1 && previous.b_lu_start >= dateIn(s.farm.year - 1, '08-01')));

/** Whether `next`, following `previous`, renews or destroys grassland ending in the year. */
function change(previous: NormsCultivation, next: NormsCultivation, s: Situation): Reduction | undefined {
  if (previous.b_lu_end === null || yearOf(previous.b_lu_end) !== s.farm.year || !GRASSLAND_CODES.has(previous.b_lu_catalogue))
    return undefined;
  if (GRASSLAND_CODES.has(next.b_lu_catalogue)) return withinWindow(nitrogenReductions.grassland_renewal, previous.b_lu_end, s);
  return followsAsDestruction(next.b_lu_catalogue, s.table) && !takenForCatchCrop(previous, s)
    ? withinWindow(nitrogenReductions.grassland_destruction, previous.b_lu_end, s)
    : undefined;
}

/** The first change of consecutive cultivations (by start) that renews or destroys grassland ending in the year. */
function grasslandChange(cultivations: NormsCultivation[], s: Situation): Reduction | undefined {
  const ordered = [...cultivations].sort((a, b) => (a.b_lu_start === b.b_lu_start ? 0 : a.b_lu_start < b.b_lu_start ? -1 : 1));
  let previous: NormsCultivation | undefined;
  for (const next of ordered) {
    const result = previous && change(previous, next, s);
    if (result) return result;
    previous = next;
  }
  return undefined;
}

/** No catch crop sown after 15 July of the year before and standing until 1 February: up to 20 kg N/ha. */
function catchCropReduction(cultivations: NormsCultivation[], year: number, table: NitrogenTable): Reduction {
  const rules = nitrogenReductions.catch_crop;
  const sown = cultivations.filter(
    (c) =>
      yearOf(c.b_lu_start) === year - 1 &&
      c.b_lu_start > dateIn(year - 1, '07-15') &&
      c.b_lu_start < dateIn(year, '02-01') &&
      table.firstEntry(c.b_lu_catalogue)?.is_vanggewas === true,
  );
  if (sown.length === 0) return of(rules.no_catch_crop);
  const [first, ...others] = sown.filter((c) => c.b_lu_end === null || c.b_lu_end >= dateIn(year, '02-01'));
  if (first === undefined) return of(rules.catch_crop_ended_too_early);
  const earliest = others.reduce((start, c) => (c.b_lu_start < start ? c.b_lu_start : start), first.b_lu_start);
  // The last band has no upper bound, so one always holds.
  const band = rules.sowing_bands.find((b) => b.sown_to === null || earliest <= dateIn(year - 1, b.sown_to.slice(0, 5)));
  return of(fromTable(band, 'nitrogen-reductions.json', `sowing band for a catch crop sown on ${earliest}`));
}

/** `cultivations`: those selected for the norm values. */
export function nitrogenReduction(
  region: SoilRegion,
  inNvArea: boolean,
  farm: FarmYear,
  cultivations: NormsCultivation[],
  main: MainCrop,
): Reduction {
  const table = nitrogenStandards[farm.year];
  const sandyOrLoess = SANDY_OR_LOESS.has(region);
  // From 2026 clay and peat have no reductions at all.
  if (farm.year === 2026 && !sandyOrLoess) return NONE;
  const change = grasslandChange(cultivations, { region, inNvArea, farm, table });
  if (change) return change;
  if (!sandyOrLoess || main.isGrassland) return NONE;
  if (table.firstEntry(main.code)?.is_winterteelt) return of(nitrogenReductions.catch_crop.winter_crop);
  return catchCropReduction(cultivations, farm.year, table);
}
