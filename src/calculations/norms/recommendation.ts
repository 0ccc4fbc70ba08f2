// The dose recommendation: the room left under the usage norms of the calendar year of a timeframe, and what
// that room means in amounts of the farm's own fertilizers.
import { calendarYear, maxDate, minDate, yearOf, type Timeframe } from '../dates.js';
import type { FieldNormsResponse } from './response.js';
import type { ProductRoom } from './product-room.js';
import { asNormYear, NORM_YEARS, type NormYear } from './tables.js';

/** The norms a dose is weighed against; the binding one is among them. */
export const DOSE_NORMS = ['nitrogen', 'manure', 'phosphate'] as const;

export interface DoseRecommendation {
  year: NormYear;
  room: FieldNormsResponse['room'];
  binding: (typeof DOSE_NORMS)[number] | null;
  norms: string;
  message: string;
  /** The day the farm's fertilizers are weighed on. */
  application_date: string;
  fertilizers: ProductRoom[];
}

/** The year whose norms the timeframe asks for, or why there is none. */
export function recommendationYear(timeframe: Timeframe): { year: NormYear } | { message: string } {
  const year = yearOf(timeframe.start);
  if (yearOf(timeframe.end) !== year) {
    return {
      message: `The usage norms are per calendar year, and the timeframe spans more than one: ask for a timeframe within ${NORM_YEARS.join(' or ')}.`,
    };
  }
  const known = asNormYear(year);
  return known ? { year: known } : { message: `No usage norms are known for ${year}: they are known for ${NORM_YEARS.join(' and ')}.` };
}

/** The day to weigh the farm's fertilizers on: the one asked for, which must lie in the year, or today kept within the year. */
export function applicationDateIn(year: NormYear, asked: string | undefined, today: string): { date: string } | { message: string } {
  const { start, end } = calendarYear(year);
  if (asked === undefined) return { date: minDate(maxDate(today, start), end) };
  if (asked < start || asked > end) {
    return {
      message: `application_date ${asked} is not in ${year}, the year of the recommendation (the calendar year of the timeframe): send a day from ${start} to ${end}.`,
    };
  }
  return { date: asked };
}

const UNITS = { nitrogen: 'kg workable N/ha', manure: 'kg N/ha from animal manure', phosphate: 'kg P2O5/ha' } as const;
const figure = (value: number) => String(Math.round(value * 100) / 100);

/** `application_date` and `fertilizers`: the farm's fertilizers weighed on that day (product-room.ts). */
export function doseRecommendation(
  field: FieldNormsResponse,
  year: NormYear,
  products: Pick<DoseRecommendation, 'application_date' | 'fertilizers'>,
): DoseRecommendation {
  const norms = `/api/fields/${field.b_id}/calculations/norms`;
  const undetermined = DOSE_NORMS.filter((name) => field.room[name] === null);
  const rooms = DOSE_NORMS.flatMap((name) => {
    const room = field.room[name];
    return room === null ? [] : [{ name, room }];
  });
  // The norm with the least room, the first of equals; none binds while one has no room.
  const [first, ...others] = rooms;
  const binding =
    undetermined.length > 0 || first === undefined ? null : others.reduce((least, r) => (r.room < least.room ? r : least), first).name;
  const parts = rooms.map((r) => `${figure(r.room)} ${UNITS[r.name]}`);
  const message = [
    parts.length > 0 ? `Room left in ${year}: ${parts.join(', ')}.` : `No room can be given for ${year}.`,
    binding ? `The ${binding} norm binds first.` : `Without a value: the ${undetermined.join(' and ')} norm (see why there).`,
    `Norms, sources and filling per application: POST ${norms} with {"year":${year}}.`,
  ].join(' ');
  return { year, room: field.room, binding, norms, message, ...products };
}
