// The dose on the wire: its options, and the nutrients applied with the room left under the usage norms.
import { z } from '@hono/zod-openapi';
import { dateSchema } from '../../http/dates.js';
import { recommendationSchema } from '../norms/schemas.js';
import { timeframeRule, timeframeSchema, timeframeShape } from '../schemas.js';
import { DOSE_KEYS } from './dose.js';

export const doseOptionsSchema = z
  .strictObject({
    ...timeframeShape,
    application_date: dateSchema.optional().openapi({
      description:
        "The day on which the recommendation weighs an application of each of the farm's fertilizers (the working coefficient depends on the month). It must lie in the recommendation's year, else 422; default today, or the nearest day of that year.",
      example: '2026-03-15',
    }),
  })
  .superRefine(timeframeRule)
  .openapi('DoseOptions', { description: 'Optional. A calculation never changes stored data.' });

const doseNutrients: Record<(typeof DOSE_KEYS)[number], string> = {
  p_dose_n: 'Nitrogen (N)',
  p_dose_nw: 'Workable nitrogen (N × the workable fraction)',
  p_dose_p: 'Phosphate (P2O5)',
  p_dose_k: 'Potash (K2O)',
  p_dose_eoc: 'Effective organic carbon',
  p_dose_s: 'Sulphur (SO3)',
  p_dose_mg: 'Magnesium (MgO)',
  p_dose_ca: 'Calcium (CaO)',
  p_dose_na: 'Sodium (Na)',
  p_dose_cu: 'Copper (Cu)',
  p_dose_zn: 'Zinc (Zn)',
  p_dose_co: 'Cobalt (Co)',
  p_dose_mn: 'Manganese (Mn)',
  p_dose_mo: 'Molybdenum (Mo)',
  p_dose_b: 'Boron (B)',
};

const doseShape = (scope: string) =>
  Object.fromEntries(
    DOSE_KEYS.map((key) => [key, z.number().openapi({ description: `${doseNutrients[key]} applied ${scope}, kg/ha (not rounded).` })]),
  ) as Record<(typeof DOSE_KEYS)[number], z.ZodNumber>;

export const doseSchema = z
  .object({
    ...doseShape('in the timeframe, all applications together'),
    applications: z
      .array(
        z.object({
          p_app_id: z.string().openapi({ description: 'Application identifier.' }),
          p_app_date: z.string().openapi({ description: 'Day of the application (YYYY-MM-DD).' }),
          p_id: z.string().openapi({ description: 'Identifier of the fertilizer applied.' }),
          p_name_nl: z.string().openapi({ description: 'Name of the fertilizer.' }),
          p_app_amount: z.number().openapi({ description: 'Amount applied, kg product/ha.' }),
          ...doseShape('by this application'),
        }),
      )
      .openapi({ description: 'Each application in the timeframe and its share of the dose.' }),
    timeframe: timeframeSchema,
    recommendation: recommendationSchema.nullable().openapi({
      description:
        "The room left under the usage norms of the timeframe's calendar year; null when the timeframe is not within 2025 or 2026.",
    }),
    recommendationMessage: z.string().optional().openapi({ description: 'Only when recommendation is null: why.' }),
  })
  .openapi('FieldDose', {
    description:
      "Nutrients applied in the timeframe, kg/ha, not rounded: p_dose_n N, p_dose_nw workable N, p_dose_p P2O5, p_dose_k K2O, p_dose_eoc effective organic carbon, p_dose_s SO3, p_dose_mg MgO, p_dose_ca CaO, p_dose_na Na, and the trace elements Cu, Zn, Co, Mn, Mo, B. `applications` gives each application's share (p_app_amount in kg/ha).",
  });
