// The row of Tabel 2 for the main crop, its sub-type description (omschrijving) and its values per soil region.
import { calendarYear, dateIn, yearOf } from '../dates.js';
import type { NormsCultivation } from './inputs.js';
import type { MainCrop } from './main-crop.js';
import type { FarmYear } from './records.js';
import type { NitrogenEntry, NitrogenSubType, RegionNorms } from './tables.js';

const hasDescriptionOrVarieties = (entry: NitrogenEntry) =>
  (entry.sub_types ?? []).some((sub) => sub.omschrijving !== null || sub.varieties !== null);

/** Of the entries listing the main crop, the first with a described sub-type, else the first. */
export const chooseEntry = (candidates: NitrogenEntry[]): NitrogenEntry | undefined =>
  candidates.find(hasDescriptionOrVarieties) ?? candidates[0];

/** Whether a cultivation of the entry's crops started in the year before or earlier (still running counts). */
const grownBefore = (entry: NitrogenEntry, cultivations: NormsCultivation[], year: number) =>
  cultivations.some((c) => entry.b_lu_catalogue_match.includes(c.b_lu_catalogue) && yearOf(c.b_lu_start) <= year - 1);

const byHistory: Record<string, [later: string, first: string]> = {
  'Akkerbouwgewassen, Luzerne': ['volgende jaren', 'eerste jaar'],
  'Akkerbouwgewassen, Gras voor industriële verwerking': ['inzaai voor 15 mei en volgende jaren', 'inzaai in september en eerste jaar'],
  'Akkerbouwgewassen, Graszaad, Engels raaigras': ['overjarig', '1e jaars'],
  'Akkerbouwgewassen, Roodzwenkgras': ['overjarig', '1e jaars'],
};
const byCode: Record<string, Record<string, string>> = {
  'Akkerbouwgewassen, koolzaad': { nl_1922: 'winter', nl_1923: 'zomer' },
  'Akkerbouwgewassen, Ui overig, zaaiui of winterui.': { nl_1932: '1e jaars', nl_1933: '2e jaars' },
};
const firstCrop = new Set(['Bladgewassen, Spinazie', 'Bladgewassen, Slasoorten', 'Bladgewassen, Andijvie eerste teelt volgteelt']);

/** The description the rules give the entry, if any; it names a sub-type and shows in the source text. */
export function subTypeDescription(
  entry: NitrogenEntry,
  main: MainCrop,
  farm: FarmYear,
  cultivations: NormsCultivation[],
): string | undefined {
  const name = entry.cultivation_rvo_table2;
  if (entry.type === 'grasland') return farm.grazingIntention ? 'beweiden' : 'volledig maaien';
  if (entry.type === 'aardappel') {
    const variety = main.record.b_lu_variety?.toLowerCase();
    const listed = variety ? entry.sub_types?.find((sub) => sub.varieties?.some((v) => v.toLowerCase() === variety)) : undefined;
    if (listed) return listed.omschrijving ?? undefined;
    return entry.sub_types?.some((sub) => sub.omschrijving === 'overig') ? 'overig' : undefined;
  }
  if (name === 'Akkerbouwgewassen, mais') return farm.derogation ? 'derogatie' : 'non-derogatie';
  const history = byHistory[name];
  if (history) return grownBefore(entry, cultivations, farm.year) ? history[0] : history[1];
  if (byCode[name]) return byCode[name][main.code];
  if (firstCrop.has(name)) return '1e teelt';
  return undefined;
}

// Temporary grassland: periods placed in the calendar year of the main crop's end.

const periodOf = (sub: NitrogenSubType, year: number) =>
  sub.period_start_month === null || sub.period_start_day === null || sub.period_end_month === null || sub.period_end_day === null
    ? undefined
    : {
        sub,
        endMonth: sub.period_end_month,
        start: dateIn(year, `${String(sub.period_start_month).padStart(2, '0')}-${String(sub.period_start_day).padStart(2, '0')}`),
        end: dateIn(year, `${String(sub.period_end_month).padStart(2, '0')}-${String(sub.period_end_day).padStart(2, '0')}`),
      };

function periodNorms(subTypes: NitrogenSubType[], record: NormsCultivation, normYear: number): RegionNorms | undefined {
  const end = record.b_lu_end ?? calendarYear(normYear).end;
  const start = record.b_lu_start;
  const periods = subTypes.flatMap((sub) => periodOf(sub, yearOf(end)) ?? []);
  const matches = periods.filter((p) => {
    if (p.start.endsWith('-01-01')) return start <= p.start && end >= p.end;
    if (p.endMonth === 12) return start >= p.start;
    return start >= p.start && end >= p.end;
  });
  // The earliest period start wins, on a tie the latest period end.
  const best = matches.reduce<(typeof matches)[number] | undefined>(
    (found, p) => (!found || p.start < found.start || (p.start === found.start && p.end > found.end) ? p : found),
    undefined,
  );
  return (best ?? periods.find((p) => p.start <= end && end <= p.end))?.sub.norms;
}

/** The entry's values per region: flat, by description, or by period; undefined when nothing decides. */
export function entryNorms(
  entry: NitrogenEntry,
  description: string | undefined,
  record: NormsCultivation,
  year: number,
): RegionNorms | undefined {
  if (!entry.sub_types) return entry.norms ?? undefined;
  const described = description === undefined ? undefined : entry.sub_types.find((sub) => sub.omschrijving === description);
  return described?.norms ?? periodNorms(entry.sub_types, record, year);
}
