// The dose recommendation in amounts of the farm's own fertilizers, on the wire.
import { z } from '@hono/zod-openapi';

const normName = z.enum(['nitrogen', 'manure', 'phosphate', 'renure']);

export const productRoomSchema = z
  .object({
    p_id: z.string().openapi({ description: "The farm's fertilizer identifier." }),
    p_name_nl: z.string().openapi({ description: 'Name of the fertilizer.' }),
    status: z.enum(['limited', 'exhausted', 'unlimited', 'undetermined', 'unconvertible']).openapi({
      description:
        'limited: max_amount is the most that fits; exhausted: not even 0.1 unit fits, max_amount 0 (binding is the norm that is full or exceeded already); unlimited: the fertilizer fills no norm (no nitrogen or phosphate that counts), max_amount null; undetermined: a norm it fills has no value for this field (undetermined_norm, and why in message), max_amount null; unconvertible: its unit is a volume and it has no density, so no application of it can be stored, max_amount null.',
    }),
    max_amount: z.number().nullable().openapi({
      description:
        'The most that keeps the room of every norm the fertilizer fills at 0 or more, kg product/ha: max_amount_display converted as an application would be stored.',
    }),
    max_amount_display: z.number().nullable().openapi({
      description:
        "The same in the fertilizer's unit (max_amount_unit), rounded down to 0.1: an application of exactly this much leaves every such room at 0 or more, 0.1 more takes the binding norm's room below 0.",
    }),
    max_amount_unit: z.enum(['kg/ha', 'ton/ha', 'l/ha', 'm3/ha']).openapi({
      description: "The fertilizer's unit (its p_app_amount_unit), in which applications of it are sent.",
    }),
    binding: normName.nullable().openapi({
      description: 'The norm that 0.1 unit more would take (or keep) below 0; null unless limited or exhausted.',
    }),
    undetermined_norm: normName.optional().openapi({ description: 'Only when undetermined: the norm without a value.' }),
    message: z.string().openapi({ description: 'The answer in words.' }),
  })
  .openapi('FertilizerRoom', {
    description:
      "The most of one of the farm's fertilizers the field can still take in the year, applied on application_date, weighed with the filling rules of every usage norm as if that application were stored.",
    example: {
      p_id: 'MwzJtXIgfWzjvid3QdtQ4g',
      p_name_nl: 'Rundveedrijfmest',
      status: 'limited',
      max_amount: 13869,
      max_amount_display: 13.8,
      max_amount_unit: 'm3/ha',
      binding: 'manure',
      message:
        'At most 13.8 m3/ha of Rundveedrijfmest on 2025-04-01: it leaves 0.12 kg N/ha under the manure norm, and 0.1 m3/ha more would exceed it.',
    },
  });
