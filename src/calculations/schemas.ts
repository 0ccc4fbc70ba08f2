// What every calculation takes and echoes on the wire: the optional timeframe of its request, and the
// timeframe it used.
import { z } from '@hono/zod-openapi';
import { dateSchema, endNotBeforeStart } from '../http/dates.js';
import { unprocessable } from '../http/validation.js';
import { dateIn, requestedTimeframe, yearOf } from './dates.js';

export const timeframeShape = {
  start: dateSchema.optional().openapi({
    description:
      'First day of the timeframe (inclusive); default 1 January of the current year. The timeframe is at most 10 years long (422 beyond).',
  }),
  end: dateSchema.optional().openapi({ description: 'Last day of the timeframe (inclusive); default 31 December of the current year.' }),
};

/** The longest timeframe a calculation takes: every per-year figure of a response is bounded by it. */
export const MAX_TIMEFRAME_YEARS = 10;

/** `end` not before `start`, and the timeframe used (defaults filled in) at most MAX_TIMEFRAME_YEARS long. */
export const timeframeRule = (options: { start?: string | undefined; end?: string | undefined }, ctx: z.RefinementCtx) => {
  endNotBeforeStart(options, ctx);
  const { start, end } = requestedTimeframe(options);
  if (end >= dateIn(yearOf(start) + MAX_TIMEFRAME_YEARS, start.slice(5))) {
    ctx.addIssue({
      code: 'custom',
      path: [options.end ? 'end' : 'start'],
      message: `makes a timeframe (${start} to ${end}) longer than ${MAX_TIMEFRAME_YEARS} years, the most a calculation takes; ask for it in parts`,
      params: unprocessable,
    });
  }
};

export const calculationOptionsSchema = z
  .strictObject(timeframeShape)
  .superRefine(timeframeRule)
  .openapi('CalculationOptions', { description: 'Optional. A calculation never changes stored data.' });

/** The timeframe a calculation used: the one sent, or the current calendar year for what was left out. */
export const timeframeSchema = z
  .object({
    start: z.string().openapi({ format: 'date', description: 'First day of the timeframe used (inclusive).' }),
    end: z.string().openapi({ format: 'date', description: 'Last day of the timeframe used (inclusive).' }),
  })
  .openapi('CalculationTimeframe', { description: 'The timeframe the calculation used.' });

/** A field's identifier in a calculation's response. */
export const calculatedFieldId = z.string().openapi({ description: 'Field identifier.' });

/** Which field a result of a balance is, with what the farm figures weigh it by. */
export const balanceFieldIdentity = {
  b_id: calculatedFieldId,
  b_area: z.number().openapi({ description: 'Area, ha.' }),
  b_bufferstrip: z.boolean().openapi({ description: 'A buffer strip has an all-zero balance and is left out of farm figures.' }),
};

/** Why a field's balance is null. */
export const fieldErrorMessage = z.string().optional().openapi({ description: 'Why the field cannot be calculated, and what to add.' });
