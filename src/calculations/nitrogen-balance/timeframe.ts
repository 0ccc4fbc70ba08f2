// The field-local timeframe and the pro-rating fractions (docs/calculations.md).
import { daysBetween, maxDate, minDate, type Timeframe } from '../dates.js';
import { D, type Dec, ZERO } from '../numbers.js';

/** [max(start, b_start), min(end, b_end)]; an empty interval collapses to its start. */
export function fieldTimeframe(timeframe: Timeframe, field: { b_start: string; b_end: string | null }): Timeframe {
  const start = maxDate(timeframe.start, field.b_start);
  const end = field.b_end === null ? timeframe.end : minDate(timeframe.end, field.b_end);
  return end < start ? { start, end: start } : { start, end };
}

/** (days + 1) / 365 over the overlap of the field and the timeframe; 0 when they do not overlap. */
export function overlapFraction(timeframe: Timeframe, field: { b_start: string; b_end: string | null }): Dec {
  const start = maxDate(timeframe.start, field.b_start);
  const end = field.b_end === null ? timeframe.end : minDate(timeframe.end, field.b_end);
  const days = daysBetween(end, start);
  return days < 0 ? ZERO : new D(days + 1).div(365);
}
