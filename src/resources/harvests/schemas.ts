// The harvest on the wire: measurements as sent, and the derived yield and N content.
import { z } from '@hono/zod-openapi';
import { recordTimesShape } from '../record-times.js';
import { dateSchema } from '../../http/dates.js';
import { nullableNumber } from '../value-schemas.js';

const measurement = (max: number, description: string) =>
  z.number().min(0, 'must not be negative').max(max, `must be at most ${max}`).nullable().optional().openapi({ description });

const measurements = {
  b_lu_yield: measurement(1_000_000, 'Dry-matter yield, kg DM/ha (grass HC020, maize HC031).'),
  b_lu_yield_fresh: measurement(1_000_000, 'Fresh yield, kg/ha (HC010, cereals HC050).'),
  b_lu_yield_bruto: measurement(1_000_000, 'Gross fresh yield including tare, kg/ha (root crops HC040, HC041, potatoes HC042).'),
  b_lu_tarra: z
    .number()
    .min(0, 'must not be negative')
    .max(99, 'must be below 100')
    .nullable()
    .optional()
    .openapi({ description: 'Tare, % (HC040–HC042).' }),
  b_lu_dm: measurement(1000, 'Dry-matter content, g/kg (HC010, HC040, HC041).'),
  b_lu_moist: measurement(100, 'Moisture content, % (cereals HC050).'),
  b_lu_uww: measurement(1000, 'Underwater weight, g per 5 kg (potatoes HC042).'),
  b_lu_cp: measurement(1000, 'Crude protein, g/kg DM (HC020, HC031, HC050).'),
  b_lu_n_harvestable: measurement(1000, 'N content of the harvested product, g N/kg DM (HC010, HC040–HC042).'),
};

const harvestDate = dateSchema.openapi({
  description: 'Harvest date: not before the cultivation starts; for a crop harvested once, on its end date when it has one.',
});

export const harvestCreateSchema = z.strictObject({ b_lu_harvest_date: harvestDate, ...measurements }).openapi('HarvestCreate', {
  description:
    "Which measurements are required depends on the crop's harvest category (b_lu_harvestcat): HC010 b_lu_yield_fresh, b_lu_dm, b_lu_n_harvestable; HC020/HC031 b_lu_yield, b_lu_cp; HC040/HC041 b_lu_yield_bruto, b_lu_tarra, b_lu_dm, b_lu_n_harvestable; HC042 b_lu_yield_bruto, b_lu_tarra, b_lu_uww, b_lu_n_harvestable; HC050 b_lu_yield_fresh, b_lu_moist, b_lu_cp. A harvest without any measurement is stored as such and the calculations use catalogue values.",
});
export type HarvestCreate = z.infer<typeof harvestCreateSchema>;

export const harvestUpdateSchema = z
  .strictObject({ b_lu_harvest_date: harvestDate, ...measurements })
  .partial()
  .openapi('HarvestUpdate', {
    description: 'Measurements sent replace the stored ones (null clears one); the derived values are recomputed.',
  });
export type HarvestUpdate = z.infer<typeof harvestUpdateSchema>;

export const harvestSchema = z
  .object({
    b_id_harvesting: z.string().openapi({ description: 'Harvest identifier.' }),
    b_lu: z.string().openapi({ description: 'Cultivation identifier.' }),
    b_lu_harvest_date: z.string().openapi({ format: 'date', description: 'Date of the harvest.' }),
    b_lu_yield: nullableNumber('Dry-matter yield used by the calculations, kg DM/ha (derived; null without measurements).'),
    b_lu_n_harvestable: nullableNumber('N content used by the calculations, g N/kg DM (derived; null without measurements).'),
    b_lu_yield_fresh: nullableNumber('As sent, kg/ha.'),
    b_lu_yield_bruto: nullableNumber('As sent, kg/ha.'),
    b_lu_tarra: nullableNumber('As sent, %.'),
    b_lu_dm: nullableNumber('As sent, g/kg.'),
    b_lu_moist: nullableNumber('As sent, %.'),
    b_lu_uww: nullableNumber('As sent, g per 5 kg.'),
    b_lu_cp: nullableNumber('As sent, g/kg DM.'),
    ...recordTimesShape,
  })
  .openapi('Harvest');

export type Harvest = z.infer<typeof harvestSchema>;
