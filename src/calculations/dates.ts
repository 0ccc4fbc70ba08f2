// Calendar dates (YYYY-MM-DD, 00:00 UTC) for the calculations.

const MS_PER_DAY = 86_400_000;

const utc = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** Whole calendar days from `earlier` to `later` (2025-01-01 → 2025-12-31 is 364). */
export const daysBetween = (later: string, earlier: string): number => Math.round((utc(later) - utc(earlier)) / MS_PER_DAY);

export const maxDate = (a: string, b: string): string => (a > b ? a : b);
export const minDate = (a: string, b: string): string => (a < b ? a : b);

export const yearOf = (date: string): number => Number(date.slice(0, 4));

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** A year as YYYY for date strings (four digits, so string comparison orders dates). */
export const dateIn = (year: number, monthDay: string): string => `${String(year).padStart(4, '0')}-${monthDay}`;

export interface Timeframe {
  start: string;
  end: string;
}

/** The calendar year `year`, 1 January to 31 December. */
export const calendarYear = (year: number): Timeframe => ({ start: dateIn(year, '01-01'), end: dateIn(year, '12-31') });

/** The current calendar year, the default timeframe of every calculation. */
export const currentYear = (now = new Date()): Timeframe => calendarYear(now.getUTCFullYear());

/** The timeframe a calculation's request asks for: what it sends, the current calendar year for what it leaves out. */
export function requestedTimeframe(body: { start?: string | undefined; end?: string | undefined }): Timeframe {
  const year = currentYear();
  return { start: body.start ?? year.start, end: body.end ?? year.end };
}

/** Today's date in UTC. */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);
