// The filling of the nitrogen norm: workable N, each application's N times the working coefficient of
// Tabel 9 for its manure code, the farm, the soil region and whether the field is arable on that day.
import { D } from '../numbers.js';
import { noSoilRegion } from './errors.js';
import { filling, type FillingOutcome } from './filling.js';
import type { NormsApplication, NormsCultivation } from './inputs.js';
import type { FarmYear } from './records.js';
import { GRASSLAND_CODES, manureCodes, workingCoefficients, type SoilRegion } from './tables.js';

interface Coefficient {
  value: number;
  details: string;
}

const MINERAL: Coefficient = { value: 1, details: 'Werkingscoëfficiënt: 100% - Kunstmest' };

// The percentage is printed as JavaScript prints the double (0.55 × 100 is 55.00000000000001), as the reference does.
const details = (value: number, ...descriptions: string[]) => [`Werkingscoëfficiënt: ${value * 100}%`, ...descriptions].join(' - ');

/** September to January: the period of the Tabel 9 rows for arable land on clay and peat. */
const inAutumnPeriod = (date: string) => {
  const month = Number(date.slice(5, 7));
  return month >= 9 || month === 1;
};

/** The first cultivation (newest start first) on the field that day; none, or grassland, is not arable land. */
function arableOn(date: string, cultivations: NormsCultivation[]): boolean {
  const present = cultivations.find((c) => c.b_lu_start <= date && (c.b_lu_end === null || date <= c.b_lu_end));
  return present !== undefined && !GRASSLAND_CODES.has(present.b_lu_catalogue);
}

function coefficient(code: string | null, region: SoilRegion, arable: boolean, date: string, farm: FarmYear): Coefficient {
  if (code === null) return MINERAL;
  // The farm's own manure is assumed to be produced on a grazing farm.
  const onFarmProduced = farm.grazingIntention;
  for (const entry of workingCoefficients) {
    if (!entry.p_type_rvo.includes(code) || (entry.on_farm_produced !== null && entry.on_farm_produced !== onFarmProduced)) continue;
    if (entry.sub_types === null) return { value: entry.p_n_wcl, details: details(entry.p_n_wcl, entry.description) };
    const sub = entry.sub_types.find(
      (s) =>
        (s.grazing_intention === null || s.grazing_intention === farm.grazingIntention) &&
        (s.soil_regions === null || s.soil_regions.includes(region)) &&
        (s.is_bouwland === null || s.is_bouwland === arable) &&
        (s.application_period === null || inAutumnPeriod(date)),
    );
    if (sub) return { value: sub.p_n_wcl, details: details(sub.p_n_wcl, entry.description, sub.description) };
  }
  return MINERAL;
}

/** `cultivations`: those selected for the fillings; `applications`: those of the year, newest first. */
export function nitrogenFilling(
  region: SoilRegion | null,
  applications: NormsApplication[],
  cultivations: NormsCultivation[],
  farm: FarmYear,
): FillingOutcome {
  if (region === null) return noSoilRegion;
  return filling(
    applications.map((a) => {
      const code = a.fertilizer.p_type_rvo;
      // A content of 0 counts as missing here (not in the manure fillings).
      const content = a.fertilizer.p_n_rt || (code === null ? null : manureCodes[farm.year].get(code)?.p_n_rt) || 0;
      const c = coefficient(code, region, arableOn(a.p_app_date, cultivations), a.p_app_date, farm);
      return {
        p_app_id: a.p_app_id,
        normFilling: new D(a.p_app_amount).times(content).times(c.value).div(1000),
        normFillingDetails: c.details,
      };
    }),
  );
}
