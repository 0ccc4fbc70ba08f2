// The derogation on the wire: a year in which the farm holds a derogation (derogatie).
import { z } from '@hono/zod-openapi';
import { farmYearParams, type YearRange } from '../farm-years.js';
import { recordTimesShape } from '../record-times.js';

/** The years a Dutch farm could hold a derogation: from its start in 2006 to its end in 2025. */
export const DEROGATION_YEARS: YearRange = { min: 2006, max: 2025 };

export const derogationParams = farmYearParams(DEROGATION_YEARS, 'Year of the derogation');

export const derogationSchema = z
  .object({
    b_id_farm: z.string().openapi({ description: 'Identifier of the farm that holds the derogation.' }),
    b_derogation_year: z
      .number()
      .int()
      .openapi({
        description: `Year in which the farm holds a derogation (${DEROGATION_YEARS.min}–${DEROGATION_YEARS.max}).`,
        example: 2025,
      }),
    ...recordTimesShape,
  })
  .openapi('Derogation');

export type Derogation = z.infer<typeof derogationSchema>;
