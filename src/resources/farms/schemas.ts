// The farm on the wire: its documented fields, validated and documented by the same schemas.
import { z } from '@hono/zod-openapi';
import { nameSchema } from '../value-schemas.js';
import { recordTimesShape } from '../record-times.js';
import { farmRoles } from '../../db/schema.js';
import { pageQuerySchema } from '../../http/pagination.js';

const optionalText = (max: number, description: string, example: string) =>
  z.string().trim().max(max, `must be at most ${max} characters`).nullable().optional().openapi({ description, example });

const farmFields = {
  b_name_farm: nameSchema('Farm name.', 'De Hoeve'),
  b_businessid_farm: optionalText(100, 'Business registration number.', '12345678'),
  b_address_farm: optionalText(500, 'Address.', 'Dorpsstraat 1, Wageningen'),
  b_postalcode_farm: optionalText(20, 'Postal code.', '6708 PB'),
};

export const farmCreateSchema = z.strictObject(farmFields).openapi('FarmCreate', {
  description: '`b_name_farm` is required; the other fields are optional and may be null. Unknown properties are refused.',
});

export const farmUpdateSchema = z.strictObject(farmFields).partial().openapi('FarmUpdate', {
  description: 'Any subset of the farm fields; those left out keep their value. `b_name_farm` cannot be emptied.',
});

export const farmSchema = z
  .object({
    b_id_farm: z.string().openapi({ description: 'Farm identifier (opaque).', example: '3sJb0u5X7vRk1cQm9Yp2Ag' }),
    b_name_farm: z.string().openapi({ description: 'Farm name.', example: 'De Hoeve' }),
    b_businessid_farm: z.string().nullable().openapi({ description: 'Business registration number.' }),
    b_address_farm: z.string().nullable().openapi({ description: 'Address.' }),
    b_postalcode_farm: z.string().nullable().openapi({ description: 'Postal code.' }),
    ...recordTimesShape,
  })
  .openapi('Farm');

/** A farm as the list gives it: with the caller's effective role on it. */
export const farmListItemSchema = farmSchema
  .extend({
    role: z.enum(farmRoles).openapi({
      description:
        'Your effective role on the farm: the highest of your own and those of your organisations (owner > advisor > researcher).',
    }),
  })
  .openapi('FarmListItem');

export const farmListQuerySchema = pageQuerySchema.extend({
  organisation: z.string().max(100).optional().openapi({
    description: 'Only the farms shared with this organisation (you must be a member of it).',
    example: 'Vw3bqK0aTzG1nP7sXc2LdA',
  }),
});

export const farmIdParams = z.object({
  b_id_farm: z.string().openapi({ param: { name: 'b_id_farm', in: 'path' }, description: 'Farm identifier.' }),
});

export type Farm = z.infer<typeof farmSchema>;
export type FarmListItem = z.infer<typeof farmListItemSchema>;
export type FarmCreate = z.infer<typeof farmCreateSchema>;
export type FarmUpdate = z.infer<typeof farmUpdateSchema>;
