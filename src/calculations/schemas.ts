// What every calculation takes and echoes on the wire: the optional timeframe of its request, and the
// timeframe it used.
import { z } from '@hono/zod-openapi';
import { dateSchema } from '../http/dates.js';
import { unprocessable } from '../http/validation.js';

export const timeframeShape = {
  start: dateSchema.optional().openapi({ description: 'First day of the timeframe (inclusive); default 1 January of the current year.' }),
  end: dateSchema.optional().openapi({ description: 'Last day of the timeframe (inclusive); default 31 December of the current year.' }),
};

export const endNotBeforeStart = (options: { start?: string | undefined; end?: string | undefined }, ctx: z.RefinementCtx) => {
  if (options.start && options.end && options.end < options.start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'must not be before start', params: unprocessable });
  }
};

export const calculationOptionsSchema = z
  .strictObject(timeframeShape)
  .superRefine(endNotBeforeStart)
  .openapi('CalculationOptions', { description: 'Optional. A calculation never changes stored data.' });

/** The timeframe a calculation used: the one sent, or the current calendar year for what was left out. */
export const timeframeSchema = z
  .object({
    start: z.string().openapi({ format: 'date', description: 'First day of the timeframe used (inclusive).' }),
    end: z.string().openapi({ format: 'date', description: 'Last day of the timeframe used (inclusive).' }),
  })
  .openapi('CalculationTimeframe', { description: 'The timeframe the calculation used.' });
