// The RVO tables of the usage norms (src/calculations/norms/data, facts from the reference), typed and
// indexed once at start-up.
import { readFileSync } from 'node:fs';

export const NORM_YEARS = [2025, 2026] as const;
export type NormYear = (typeof NORM_YEARS)[number];

/** `year` when its norms are known, else undefined. */
export const asNormYear = (year: number): NormYear | undefined => NORM_YEARS.find((known) => known === year);

export const SOIL_REGIONS = ['klei', 'veen', 'loess', 'zand_nwc', 'zand_zuid'] as const;
export type SoilRegion = (typeof SOIL_REGIONS)[number];

const load = <T>(file: string): T => JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as T;

/** `entry`, which the shipped `table` always holds: without it the data is at fault, not the request. */
export function fromTable<T>(entry: T | undefined, table: string, what: string): T {
  if (entry === undefined) throw new Error(`${table} has no ${what}`);
  return entry;
}

export interface RegionNorm {
  standard: number;
  nv_area: number;
}
export type RegionNorms = Record<SoilRegion, RegionNorm>;

export interface NitrogenSubType {
  omschrijving: string | null;
  period_start_month: number | null;
  period_start_day: number | null;
  period_end_month: number | null;
  period_end_day: number | null;
  varieties: string[] | null;
  norms: RegionNorms;
}

export interface NitrogenEntry {
  cultivation_rvo_table2: string;
  b_lu_catalogue_match: string[];
  type: string;
  is_winterteelt: boolean;
  is_vanggewas: boolean;
  norms: RegionNorms | null;
  sub_types: NitrogenSubType[] | null;
}

export interface NitrogenTable {
  entries: readonly NitrogenEntry[];
  /** Every entry listing a code, in table order. */
  candidates(code: string): NitrogenEntry[];
  /** The first entry listing a code (the reductions' rule). */
  firstEntry(code: string): NitrogenEntry | undefined;
}

function nitrogenTable(year: NormYear): NitrogenTable {
  const entries = load<{ standards: NitrogenEntry[] }>(`nitrogen-standards-${year}.json`).standards;
  const byCode = new Map<string, NitrogenEntry[]>();
  for (const entry of entries) {
    for (const code of entry.b_lu_catalogue_match) byCode.set(code, [...(byCode.get(code) ?? []), entry]);
  }
  return { entries, candidates: (code) => byCode.get(code) ?? [], firstEntry: (code) => byCode.get(code)?.[0] };
}

export const nitrogenStandards: Record<NormYear, NitrogenTable> = { 2025: nitrogenTable(2025), 2026: nitrogenTable(2026) };

interface Constants {
  grassland_codes: string[];
  fallback_main_crop: string;
  main_crop_window: { start: string; end: string };
  seed_potato_codes: string[];
  sandy_or_loess_regions: SoilRegion[];
}
const constants = load<Constants>('constants.json');
export const GRASSLAND_CODES: ReadonlySet<string> = new Set(constants.grassland_codes);
export const FALLBACK_MAIN_CROP = constants.fallback_main_crop;
export const MAIN_CROP_WINDOW = constants.main_crop_window;
export const SEED_POTATO_CODES: ReadonlySet<string> = new Set(constants.seed_potato_codes);
export const SANDY_OR_LOESS: ReadonlySet<SoilRegion> = new Set(constants.sandy_or_loess_regions);

export interface ReductionWindow {
  year: number;
  soil_regions: SoilRegion[];
  derogation: boolean | null;
  nv_area: boolean | null;
  from: string;
  to: string;
  message_if_outside: string;
}
export interface GrasslandReduction {
  reduction: number;
  normSource_suffix: string;
  windows: ReductionWindow[];
}
export interface ReductionText {
  reduction: number;
  normSource_suffix: string;
}
export interface SowingBand extends ReductionText {
  /** Last sowing day of the band, `MM-DD of Y-1`; null for the last band. */
  sown_to: string | null;
}
export const nitrogenReductions = load<{
  grassland_renewal: GrasslandReduction;
  grassland_destruction: GrasslandReduction;
  catch_crop: {
    no_catch_crop: ReductionText;
    catch_crop_ended_too_early: ReductionText;
    winter_crop: ReductionText;
    sowing_bands: SowingBand[];
  };
}>('nitrogen-reductions.json');

export interface PhosphateClassRow {
  land_use: 'grasland' | 'bouwland';
  p_cc_min: number | null;
  p_cc_max: number | null;
  p_al_min: number | null;
  p_al_max: number | null;
  fosfaatklasse: PhosphateClass;
}
export type PhosphateClass = 'Arm' | 'Laag' | 'Neutraal' | 'Ruim' | 'Hoog';
export const phosphateClasses = load<{ rows: PhosphateClassRow[] }>('phosphate-classes.json').rows;
export const phosphateNorms = load<{ years: Record<string, Record<PhosphateClass, { grasland: number; bouwland: number }>> }>(
  'phosphate-norms.json',
).years;

export interface NormRule {
  when: string;
  normValue: number;
  normSource: string;
}
export const manureNorms = load<{ manure: Record<string, NormRule[]>; renure: Record<string, NormRule[]> }>('manure-norms.json');

export interface Table9SubType {
  description: string;
  grazing_intention: boolean | null;
  soil_regions: SoilRegion[] | null;
  is_bouwland: boolean | null;
  application_period: string | null;
  p_n_wcl: number;
}
/** An entry has either one working coefficient or sub-types, each with its own. */
export type Table9Entry = {
  description: string;
  p_type_rvo: string[];
  on_farm_produced: boolean | null;
} & ({ p_n_wcl: number; sub_types: null } | { p_n_wcl: null; sub_types: Table9SubType[] });
export const workingCoefficients = load<{ entries: Table9Entry[] }>('table9-working-coefficients.json').entries;

export interface ManureCode {
  p_type_rvo: string;
  p_type_nitratesdirective: boolean;
  p_type_renure?: boolean;
  p_n_rt: number | null;
  p_p_rt: number | null;
}
const manureCodeTable = (year: NormYear): ReadonlyMap<string, ManureCode> =>
  new Map(load<{ rows: ManureCode[] }>(`manure-codes-table11-${year}.json`).rows.map((row) => [row.p_type_rvo, row]));
/** Tabel 11 of each year by manure code. */
export const manureCodes: Record<NormYear, ReadonlyMap<string, ManureCode>> = { 2025: manureCodeTable(2025), 2026: manureCodeTable(2026) };

const organicRich = load<{
  threshold_kg_p2o5_per_ha: number;
  groups: Array<{ factor: number; p_type_rvo: string[]; requires_organic_certification: boolean }>;
}>('organic-rich-phosphate.json');
export const ORGANIC_RICH_THRESHOLD = organicRich.threshold_kg_p2o5_per_ha;
export const organicRichGroups = organicRich.groups;
