// The current soil data of a field on the wire.
import { z } from '@hono/zod-openapi';

const currentValueSchema = z
  .object({
    parameter: z
      .string()
      .openapi({ description: 'Soil parameter, as in SoilAnalysisCreate (which gives its unit).', example: 'a_som_loi' }),
    value: z.union([z.number(), z.string()]).openapi({
      description: 'Its newest value: a number in the parameter’s unit, or a class (b_soiltype_agr, b_gwl_class).',
      example: 4.2,
    }),
    a_id: z.string().openapi({ description: 'The soil analysis the value comes from.', example: 'Vd3kPq9LmX0sBt7UwEa2KcQ' }),
    b_sampling_date: z
      .string()
      .nullable()
      .openapi({ format: 'date', description: 'Sampling date of that analysis; null when undated.', example: '2025-03-04' }),
    a_depth_upper: z.number().openapi({ description: 'Upper sampling depth of that analysis, cm below the surface.', example: 0 }),
    a_depth_lower: z
      .number()
      .nullable()
      .openapi({ description: 'Lower sampling depth of that analysis, cm below the surface; null when not known.', example: 30 }),
    a_source: z.string().openapi({ description: 'Laboratory or other source of that analysis.', example: 'other' }),
  })
  .openapi('CurrentSoilValue', { description: 'The newest value of one soil parameter, and the analysis it comes from.' });

export const currentSoilDataSchema = z
  .object({
    b_id: z.string().openapi({ description: 'Field identifier.', example: 'Qm9Yp2Ag3sJb0u5X7vRk1c' }),
    data: z.array(currentValueSchema).openapi({
      description:
        'Each soil parameter that has a value in any analysis of the field: the newest by sampling date, undated analyses last, and of two sampled on the same day the later-recorded one. Values of one field may come from different analyses.',
    }),
  })
  .openapi('CurrentSoilData', { description: 'The newest known value of each soil parameter of a field.' });
