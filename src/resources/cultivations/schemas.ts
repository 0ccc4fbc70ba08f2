// The cultivation on the wire: the stored record plus its crop's catalogue columns.
import { z } from '@hono/zod-openapi';
import { recordTimesShape } from '../record-times.js';
import { dateSchema } from '../../http/dates.js';
import { unprocessable } from '../../http/validation.js';
import { nullableNumber } from '../value-schemas.js';

const endNotBeforeStart = (c: { b_lu_start?: string; b_lu_end?: string | null }, ctx: z.RefinementCtx) => {
  if (c.b_lu_start && c.b_lu_end && c.b_lu_end < c.b_lu_start) {
    ctx.addIssue({ code: 'custom', path: ['b_lu_end'], message: 'must not be before b_lu_start', params: unprocessable });
  }
};

// Stored exactly as sent, untrimmed: the usage norms match a variety by its whole name, case aside.
const varietyDescription =
  'Crop variety (ras), stored exactly as sent; null when not stated. The nitrogen usage norm of potatoes depends on it.';

const writable = {
  b_lu_catalogue: z.string().min(1).max(50).openapi({
    description: 'Crop code of the BRP catalogue (GET /api/catalogues/cultivations); unknown codes are 422.',
    example: 'nl_233',
  }),
  b_lu_start: dateSchema.openapi({ description: 'Sowing or planting date.' }),
  b_lu_end: dateSchema.nullable().optional().openapi({
    description:
      'End date, not before b_lu_start; null while growing. For a crop harvested once, an end date on creation stores its harvest on that date with catalogue values.',
  }),
  m_cropresidue: z
    .boolean()
    .nullable()
    .optional()
    .openapi({ description: 'Whether crop residues stay on the field (true), are removed (false), or unknown (null).' }),
  b_lu_variety: z
    .string()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .nullable()
    .optional()
    .openapi({ description: varietyDescription, example: 'Fontane' }),
};

export const cultivationCreateSchema = z.strictObject(writable).superRefine(endNotBeforeStart).openapi('CultivationCreate');
export const cultivationUpdateSchema = z.strictObject(writable).partial().superRefine(endNotBeforeStart).openapi('CultivationUpdate');
export type CultivationCreate = z.infer<typeof cultivationCreateSchema>;
export type CultivationUpdate = z.infer<typeof cultivationUpdateSchema>;

export const cultivationSchema = z
  .object({
    b_lu: z.string().openapi({ description: 'Cultivation identifier.' }),
    b_id: z.string().openapi({ description: 'Field identifier.' }),
    b_lu_catalogue: z.string().openapi({ description: 'Crop code in the catalogue (GET /api/catalogues/cultivations).' }),
    b_lu_start: z.string().openapi({ format: 'date', description: 'Sowing or planting date.' }),
    b_lu_end: z.string().nullable().openapi({ format: 'date', description: 'End of the cultivation; null while it runs.' }),
    m_cropresidue: z.boolean().nullable().openapi({ description: 'Whether crop residues are left on the field; null when not known.' }),
    b_lu_variety: z.string().nullable().openapi({ description: varietyDescription }),
    b_lu_source: z.string().openapi({ description: 'Catalogue of the crop code (brp).' }),
    b_lu_name: z.string().openapi({ description: 'Name of the crop (Dutch).' }),
    b_lu_name_en: z.string().nullable().openapi({ description: 'Name of the crop in English; null when the catalogue has none.' }),
    b_lu_croprotation: z.string().openapi({ description: 'Crop group.' }),
    b_lu_harvestable: z
      .enum(['once', 'multiple', 'none'])
      .openapi({ description: 'Whether the crop is harvested once, several times, or not at all.' }),
    b_lu_harvestcat: z
      .string()
      .nullable()
      .openapi({ description: 'Harvest category (HC010 … HC050), which decides the harvest measurements.' }),
    b_lu_yield: nullableNumber('Default dry-matter yield per harvest, kg DM/ha.'),
    b_lu_dm: nullableNumber('Dry-matter content of the harvested product, g/kg.'),
    b_lu_hi: nullableNumber('Harvest index, fraction.'),
    b_lu_n_harvestable: nullableNumber('N content of the harvested product, g N/kg DM.'),
    b_lu_n_residue: nullableNumber('N content of crop residues, g N/kg DM.'),
    b_n_fixation: nullableNumber('Biological N fixation, kg N/ha.'),
    b_lu_eom: nullableNumber('Effective organic matter from the crop, kg EOM/ha.'),
    b_lu_eom_residue: nullableNumber('Effective organic matter from residues, kg EOM/ha.'),
    ...recordTimesShape,
  })
  .openapi('Cultivation');

export type Cultivation = z.infer<typeof cultivationSchema>;
