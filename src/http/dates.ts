// Calendar dates (YYYY-MM-DD, checked against the calendar) and the start/end filter of lists.
import { z } from '@hono/zod-openapi';
import { pageQuerySchema } from './pagination.js';
import { unprocessable } from './validation.js';

// PostgreSQL has no year 0: 0000-01-01 is not a date there.
export const dateSchema = z.iso
  .date('must be a calendar date YYYY-MM-DD')
  .refine((date) => date >= '0001-01-01', 'must be in the year 1 or later')
  .openapi({ example: '2025-03-01' });

/** A window of days whose `end` is before its `start` is 422. */
export function endNotBeforeStart(range: { start?: string; end?: string }, ctx: z.RefinementCtx): void {
  if (range.start && range.end && range.end < range.start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'must not be before start', params: unprocessable });
  }
}

/** limit, offset, start and end; `end` before `start` is 422. */
export const pagedDateRangeQuerySchema = pageQuerySchema
  .extend({
    start: dateSchema.optional().openapi({ description: 'First day of the window (inclusive).' }),
    end: dateSchema.optional().openapi({ description: 'Last day of the window (inclusive).' }),
  })
  .superRefine(endNotBeforeStart);
