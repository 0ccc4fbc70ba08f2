// The grazing intention on the wire: whether the farm intends to graze its animals (beweiden) in a year.
import { z } from '@hono/zod-openapi';
import { farmYearParams, type YearRange } from '../farm-years.js';
import { recordTimesShape } from '../record-times.js';

/** The years a grazing intention may be stated for. */
export const GRAZING_INTENTION_YEARS: YearRange = { min: 2000, max: 2100 };

export const grazingIntentionParams = farmYearParams(GRAZING_INTENTION_YEARS, 'Year of the grazing intention');

const intention = z
  .boolean()
  .openapi({ description: 'Whether the farm intends to graze its animals in the year. A year without a record counts as false.' });

export const grazingIntentionSetSchema = z.strictObject({ b_grazing_intention: intention }).openapi('GrazingIntentionSet');

export const grazingIntentionSchema = z
  .object({
    b_id_farm: z.string().openapi({ description: 'Farm identifier.' }),
    b_grazing_intention_year: z.number().int().openapi({ description: 'Year of the grazing intention.', example: 2025 }),
    b_grazing_intention: intention,
    ...recordTimesShape,
  })
  .openapi('GrazingIntention');

export type GrazingIntention = z.infer<typeof grazingIntentionSchema>;
