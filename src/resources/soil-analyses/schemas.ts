// The soil analysis on the wire: sampling (depth, date) and parameters with units and ranges.
import { z } from '@hono/zod-openapi';
import { recordTimesShape } from '../record-times.js';
import { dateSchema } from '../../http/dates.js';
import { unprocessable } from '../../http/validation.js';
import { groundwaterClasses, numericSoilParameters, soilTypes } from './parameters.js';

/** A bound as a message shows it: with its unit, unless the parameter has none ('-', a ratio or pH). */
const withUnit = (value: number, unit: string) => (unit === '-' ? `${value}` : `${value} ${unit}`);

const parameterShape = {
  ...Object.fromEntries(
    Object.entries(numericSoilParameters).map(([name, p]) => [
      name,
      z
        .number()
        .min(p.min, `must be at least ${withUnit(p.min, p.unit)}`)
        .max(p.max, `must be at most ${withUnit(p.max, p.unit)}`)
        .nullable()
        .optional()
        .openapi({ description: `${p.description}, ${p.unit} (${p.min}–${p.max}).` }),
    ]),
  ),
  b_soiltype_agr: z.enum(soilTypes).nullable().optional().openapi({ description: 'Agricultural soil type.' }),
  b_gwl_class: z.enum(groundwaterClasses).nullable().optional().openapi({ description: 'Groundwater class (Gt).' }),
} as Record<string, z.ZodType>;

const depth = (description: string) =>
  z.number().min(0, 'must not be negative').max(1000, 'must be at most 1000 cm').openapi({ description });

const samplingShape = {
  a_date: dateSchema.nullable().optional().openapi({ description: 'Date of the analysis.' }),
  a_source: z.string().trim().min(1).max(100).openapi({ description: 'Laboratory, method or source of the analysis.', example: 'other' }),
  a_depth_upper: depth('Upper sampling depth, cm below the surface.'),
  a_depth_lower: depth('Lower sampling depth, cm below the surface; below the upper depth.').nullable().optional(),
  b_sampling_date: dateSchema
    .nullable()
    .optional()
    .openapi({ description: 'Sampling date. Calculations use analyses sampled within their timeframe, and undated ones.' }),
};

const lowerBelowUpper = (a: { a_depth_upper?: number; a_depth_lower?: number | null }, ctx: z.RefinementCtx) => {
  if (a.a_depth_upper !== undefined && a.a_depth_lower !== undefined && a.a_depth_lower !== null && a.a_depth_lower <= a.a_depth_upper) {
    ctx.addIssue({ code: 'custom', path: ['a_depth_lower'], message: 'must be below (greater than) a_depth_upper', params: unprocessable });
  }
};

export const soilAnalysisCreateSchema = z
  .strictObject({
    ...samplingShape,
    a_source: samplingShape.a_source.default('other'),
    a_depth_upper: samplingShape.a_depth_upper.default(0),
    ...parameterShape,
  })
  .superRefine(lowerBelowUpper)
  .openapi('SoilAnalysisCreate', { description: 'Every parameter is optional; a null one is not measured.' });

export const soilAnalysisUpdateSchema = z
  .strictObject({ ...samplingShape, ...parameterShape })
  .partial()
  .superRefine(lowerBelowUpper)
  .openapi('SoilAnalysisUpdate', { description: 'Any subset; null clears a parameter. Depths are checked against the stored ones (409).' });

export const soilAnalysisSchema = z
  .object({
    a_id: z.string().openapi({ description: 'Soil analysis identifier.' }),
    b_id: z.string().openapi({ description: 'Field identifier.' }),
    a_date: z.string().nullable().openapi({ format: 'date', description: 'Date of the analysis report.' }),
    a_source: z.string().openapi({ description: 'Laboratory or other source of the analysis.' }),
    a_depth_upper: z.number().openapi({ description: 'Upper sampling depth, cm below the surface.' }),
    a_depth_lower: z.number().nullable().openapi({ description: 'Lower sampling depth, cm below the surface; null when not known.' }),
    b_sampling_date: z.string().nullable().openapi({ format: 'date', description: 'Date the soil was sampled.' }),
    ...recordTimesShape,
  })
  .catchall(z.union([z.number(), z.string(), z.null()]))
  .openapi('SoilAnalysis', { description: 'The sampling columns, plus each measured parameter (see SoilAnalysisCreate for units).' });

export type SoilAnalysisCreate = z.infer<typeof soilAnalysisCreateSchema>;
export type SoilAnalysisUpdate = z.infer<typeof soilAnalysisUpdateSchema>;
