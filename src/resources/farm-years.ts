// The path of a farm's record for one calendar year (a derogation, a grazing intention): the farm, and a
// year within the years such a record may have.
import { z } from '@hono/zod-openapi';
import { farmIdParams } from './farms/schemas.js';

export interface YearRange {
  min: number;
  max: number;
}

/** Path parameters b_id_farm and year; a year of other than four digits, or outside `range`, is 400. */
export const farmYearParams = (range: YearRange, description: string) =>
  z.object({
    b_id_farm: farmIdParams.shape.b_id_farm,
    year: z
      .string()
      .regex(/^[0-9]{4}$/, 'must be a year of four digits')
      .transform(Number)
      .pipe(z.number().min(range.min, `must be ${range.min} or later`).max(range.max, `must be ${range.max} or earlier`))
      .openapi({
        param: { name: 'year', in: 'path' },
        type: 'integer',
        minimum: range.min,
        maximum: range.max,
        description: `${description} (${range.min}–${range.max}).`,
        example: 2025,
      }),
  });
