// Date-window conditions of lists: a period overlaps the window, a date lies in it.
import { and, gte, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** The window of a list's start and end filters (dates YYYY-MM-DD, both inclusive, either may be absent). */
export interface DateRange {
  start?: string | undefined;
  end?: string | undefined;
}

/** [start, end or open] overlaps [range.start, range.end]; either bound of the window may be absent. */
export function periodOverlaps(start: PgColumn, end: PgColumn, range: DateRange): SQL | undefined {
  return and(range.end ? lte(start, range.end) : undefined, range.start ? or(isNull(end), gte(end, range.start)) : undefined);
}

export function dateWithin(date: PgColumn, range: DateRange): SQL | undefined {
  return and(range.start ? gte(date, range.start) : undefined, range.end ? lte(date, range.end) : undefined);
}
