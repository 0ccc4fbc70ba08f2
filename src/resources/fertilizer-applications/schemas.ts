// A fertilizer application on the wire: the amount as sent in the product's unit, and in kg/ha.
import { z } from '@hono/zod-openapi';
import { recordTimesShape } from '../record-times.js';
import { applicationMethods } from '../../catalogues/fertilizers.js';
import { dateSchema } from '../../http/dates.js';

const writable = {
  p_id: z
    .string()
    .min(1)
    .openapi({ description: "A fertilizer of the field's farm (GET /api/farms/{b_id_farm}/fertilizers), not a catalogue id." }),
  p_app_amount_display: z
    .number()
    .min(0, 'must not be negative')
    .max(1_000_000, 'must be at most 1000000')
    .openapi({ description: "Amount in the fertilizer's unit (p_app_amount_unit)." }),
  p_app_amount_unit: z
    .enum(['kg/ha', 'ton/ha', 'l/ha', 'm3/ha'])
    .optional()
    .openapi({ description: "Optional; when sent it must be the fertilizer's unit." }),
  p_app_method: z.enum(applicationMethods).nullable().optional().openapi({
    description: 'Application method; null or left out when not known (the nitrogen balance then cannot use an organic fertilizer).',
  }),
  p_app_date: dateSchema.openapi({ description: 'Application date.' }),
};

export const applicationCreateSchema = z.strictObject(writable).openapi('FertilizerApplicationCreate');
export const applicationUpdateSchema = z.strictObject(writable).partial().openapi('FertilizerApplicationUpdate');

export const applicationSchema = z
  .object({
    p_app_id: z.string().openapi({ description: 'Application identifier.' }),
    b_id: z.string().openapi({ description: 'Field identifier.' }),
    p_id: z.string().openapi({ description: "The farm's fertilizer applied." }),
    p_id_catalogue: z.string().openapi({ description: 'Code of the fertilizer in its catalogue.' }),
    p_name_nl: z.string().openapi({ description: 'Name of the fertilizer (Dutch).' }),
    p_app_amount: z.number().openapi({ description: 'Amount in kg/ha, converted from the amount sent.' }),
    p_app_amount_display: z.number().openapi({ description: 'The amount as it was sent, in p_app_amount_unit.' }),
    p_app_amount_unit: z.string().openapi({ description: 'Unit of p_app_amount_display: kg/ha, ton/ha, l/ha or m3/ha.' }),
    p_app_method: z.string().nullable().openapi({ description: 'Application method; null when not known.' }),
    p_app_date: z.string().openapi({ format: 'date', description: 'Date of the application.' }),
    ...recordTimesShape,
  })
  .openapi('FertilizerApplication');

export type ApplicationCreate = z.infer<typeof applicationCreateSchema>;
export type ApplicationUpdate = z.infer<typeof applicationUpdateSchema>;
