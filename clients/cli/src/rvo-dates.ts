// Dates of an RVO Mijn Percelen export: BEGINDAT and EINDDAT are epoch milliseconds of a day's start in
// Dutch time, so the calendar date is read in Europe/Amsterdam (in UTC, 1 January would be 31 December).

const dutchDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * The end RVO writes for a parcel that has none: 9999-12-31T23:59:59Z in milliseconds (253402297199000).
 * The same instant in seconds (253402297199) is taken too, as is any moment of the year 9999.
 */
export const NO_END_MS = 253_402_297_199_000;
const NO_END_SECONDS = 253_402_297_199;
const YEAR_9999_MS = Date.UTC(9999, 0, 1) - 2 * 3_600_000;

/** YYYY-MM-DD of an epoch-milliseconds moment, in Dutch time. */
export const dateOfEpochMs = (ms: number): string => dutchDate.format(new Date(ms));

/** An EINDDAT: its date, or null when it means no end. */
export const endOfEpochMs = (ms: number): string | null => (ms === NO_END_SECONDS || ms >= YEAR_9999_MS ? null : dateOfEpochMs(ms));

/** Epoch milliseconds of 00:00 Dutch time on a date (UTC+1 in winter, UTC+2 in summer). */
export function epochMsOfDate(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(year, month - 1, day);
  const candidates = [midnightUtc - 3_600_000, midnightUtc - 7_200_000];
  return candidates.find((ms) => dateOfEpochMs(ms) === date && dateOfEpochMs(ms - 1) !== date) ?? candidates[0]!;
}
