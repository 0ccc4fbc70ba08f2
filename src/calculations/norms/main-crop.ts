// The legal main crop (hoofdteelt): the cultivation present longest between 15 May and 15 July of the year.
import { calendarYear, daysBetween, dateIn, maxDate, minDate } from '../dates.js';
import type { NormsCultivation } from './inputs.js';
import { FALLBACK_MAIN_CROP, GRASSLAND_CODES, MAIN_CROP_WINDOW, type NormYear } from './tables.js';

export interface MainCrop {
  code: string;
  /**
   * The first cultivation in the given order with the main crop's code — the most recently started one,
   * which need not be the one present in the window; for the fallback crop a stand-in over the year.
   */
  record: NormsCultivation;
  isGrassland: boolean;
}

/** `cultivations`: those selected for the norm values, in their order. */
export function mainCrop(cultivations: NormsCultivation[], year: NormYear): MainCrop {
  const windowStart = dateIn(year, MAIN_CROP_WINDOW.start);
  const windowEnd = dateIn(year, MAIN_CROP_WINDOW.end);
  let best: { code: string; days: number } | undefined;
  for (const c of cultivations) {
    const days = daysBetween(minDate(c.b_lu_end ?? windowEnd, windowEnd), maxDate(c.b_lu_start, windowStart));
    if (days <= 0) continue;
    if (!best || days > best.days || (days === best.days && c.b_lu_catalogue < best.code)) best = { code: c.b_lu_catalogue, days };
  }
  const code = best?.code ?? FALLBACK_MAIN_CROP;
  const { start, end } = calendarYear(year);
  const record = cultivations.find((c) => c.b_lu_catalogue === code) ?? {
    b_lu: '',
    b_lu_catalogue: code,
    b_lu_start: start,
    b_lu_end: end,
    b_lu_variety: null,
  };
  return { code, record, isGrassland: GRASSLAND_CODES.has(code) };
}
