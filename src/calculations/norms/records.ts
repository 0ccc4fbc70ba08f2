// Which records count for the norms of a year (docs/calculations.md), and the farm's facts for that year.
import { findCrop } from '../../catalogues/crops.js';
import { calendarYear, dateIn, type Timeframe } from '../dates.js';
import { newestValues } from '../soil-values.js';
import type { NormsApplication, NormsCultivation, NormsFarm, NormsField } from './inputs.js';
import type { NormYear } from './tables.js';

/** The overlap rule of the calculations: a dated period ends in the window, starts in it or spans it. */
const overlaps = (c: NormsCultivation, { start, end }: Timeframe) =>
  c.b_lu_end === null ? c.b_lu_start <= end : c.b_lu_start <= end && c.b_lu_end >= start;

const cropName = (c: NormsCultivation) => findCrop(c.b_lu_catalogue)?.b_lu_name ?? '';

const compare = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);

/** Newest start first, then the crop's catalogue name, then the identifier. */
const byStartDescending = (a: NormsCultivation, b: NormsCultivation) =>
  compare(b.b_lu_start, a.b_lu_start) || compare(cropName(a), cropName(b)) || compare(a.b_lu, b.b_lu);

/** The cultivations for the norm values: those overlapping the year and the year before. */
export function cultivationsForValues(field: NormsField, year: NormYear): NormsCultivation[] {
  const window = { start: calendarYear(year - 1).start, end: calendarYear(year).end };
  return field.cultivations.filter((c) => overlaps(c, window)).sort(byStartDescending);
}

/** The cultivations for the fillings: those overlapping the year. */
export function cultivationsForFillings(field: NormsField, year: NormYear): NormsCultivation[] {
  const window = calendarYear(year);
  return field.cultivations.filter((c) => overlaps(c, window)).sort(byStartDescending);
}

/** The applications dated in the year, newest first. */
export function applicationsOfYear(field: NormsField, year: NormYear): NormsApplication[] {
  const { start, end } = calendarYear(year);
  return field.applications.filter((a) => a.p_app_date >= start && a.p_app_date <= end).sort((a, b) => compare(b.p_app_date, a.p_app_date));
}

/**
 * P-CaCl2 and P-AL, each the newest value sampled by the end of the year (soil-values.ts); the two may come
 * from different analyses.
 */
export function soilPhosphate(field: NormsField, year: NormYear): { a_p_cc: number | null; a_p_al: number | null } {
  const endOfYear = calendarYear(year).end;
  const analyses = field.soilAnalyses.filter((a) => a.b_sampling_date === null || a.b_sampling_date <= endOfYear);
  const newest = newestValues(analyses, ['a_p_cc', 'a_p_al'] as const, (analysis, name) => analysis[name]);
  return {
    a_p_cc: newest.a_p_cc?.value ?? null,
    a_p_al: newest.a_p_al?.value ?? null,
  };
}

/** The farm's facts for the year. */
export interface FarmYear {
  year: NormYear;
  /** A derogation for the year; there is none from 2026. */
  derogation: boolean;
  grazingIntention: boolean;
  /** An organic certification valid on 15 May of the year. */
  organicCertified: boolean;
}

export function farmYear(farm: NormsFarm, year: NormYear): FarmYear {
  const may15 = dateIn(year, '05-15');
  return {
    year,
    derogation: year === 2025 && farm.derogationYears.includes(year),
    grazingIntention: farm.grazingIntentions.some((g) => g.year === year && g.b_grazing_intention),
    organicCertified: farm.organicCertifications.some((c) => c.b_organic_issued <= may15 && may15 <= c.b_organic_expires),
  };
}

/** Whether a field belongs to the farm in the year (its own period overlaps the year). */
export function fieldInYear(field: Pick<NormsField, 'b_start' | 'b_end'>, year: NormYear): boolean {
  const { start, end } = calendarYear(year);
  return field.b_start <= end && (field.b_end === null || field.b_end >= start);
}
