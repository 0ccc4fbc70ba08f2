// The year's main cultivation of each parcel whose file names a crop (RVO's GEWASCODE): added when the field
// has no cultivation of that crop in the year, refused when the catalogue does not know the code.
import { cropCodes, cropsInYear } from './akker-reads.js';
import type { Connection } from './connection.js';
import type { Reviewed } from './review.js';

export type CropPlan =
  | { state: 'none' }
  | { state: 'present' | 'outside the field period'; code: string }
  | { state: 'add'; code: string; start: string }
  | { state: 'unknown'; code: string };

/** The cultivation starts with the year, or with the field when it came later; it runs on (no end). */
const startInYear = (fieldStart: string, year: number) => (fieldStart > `${year}-01-01` ? fieldStart : `${year}-01-01`);

const inYear = (start: string, end: string | null | undefined, year: number) =>
  start <= `${year}-12-31` && (!end || end >= `${year}-01-01`);

export async function planCrops(connection: Connection, reviewed: Reviewed[], year: number): Promise<CropPlan[]> {
  const named = reviewed.some((entry) => entry.status !== 'refused' && entry.parcel.cropCode !== undefined);
  const catalogue = named ? await cropCodes(connection) : new Set<string>();
  const plans: CropPlan[] = [];
  for (const entry of reviewed) {
    const code = entry.parcel.cropCode;
    if (entry.status === 'refused' || code === undefined) plans.push({ state: 'none' });
    else if (!catalogue.has(code)) plans.push({ state: 'unknown', code });
    else if (!inYear(entry.parcel.start, entry.parcel.end, year)) plans.push({ state: 'outside the field period', code });
    else if (entry.status !== 'new' && (await cropsInYear(connection, entry.field.id, year)).has(code))
      plans.push({ state: 'present', code });
    else plans.push({ state: 'add', code, start: startInYear(entry.parcel.start, year) });
  }
  return plans;
}
