// The fillings of the animal-manure norm and the Renure norm: the N of each application whose manure code
// counts for that norm in the year's Tabel 11.
import { D, ZERO } from '../numbers.js';
import { notDeterminable } from './errors.js';
import { filling, type FillingOutcome } from './filling.js';
import type { NormsApplication } from './inputs.js';
import { manureCodes, type ManureCode, type NormYear } from './tables.js';

function codeFilling(applications: NormsApplication[], year: NormYear, counts: (code: ManureCode) => boolean): FillingOutcome {
  const table = manureCodes[year];
  const items = [];
  for (const a of applications) {
    const code = a.fertilizer.p_type_rvo;
    if (code === null) return notDeterminable(`Fertilizer ${a.p_id_catalogue} has no p_type_rvo`);
    const row = table.get(code);
    if (!row) return notDeterminable(`Fertilizer ${a.p_id_catalogue} has unknown p_type_rvo ${code}`);
    // Only a missing content falls back to the table; a stated 0 stays 0.
    const content = a.fertilizer.p_n_rt ?? row.p_n_rt ?? 0;
    items.push({ p_app_id: a.p_app_id, normFilling: counts(row) ? new D(a.p_app_amount).times(content).div(1000) : ZERO });
  }
  return filling(items);
}

/** `applications`: those of the year, newest first. */
export const manureFilling = (applications: NormsApplication[], year: NormYear) =>
  codeFilling(applications, year, (row) => row.p_type_nitratesdirective);

export const renureFilling = (applications: NormsApplication[], year: NormYear) =>
  codeFilling(applications, year, (row) => row.p_type_renure === true);
