// A farm's fertilizers: catalogue products the farm has acquired.
import { z } from '@hono/zod-openapi';
import { recordTimesShape } from '../record-times.js';
import type { FertilizerEntry } from '../../catalogues/fertilizers.js';
import { nullableNumber } from '../value-schemas.js';

export const farmFertilizerCreateSchema = z
  .strictObject({
    p_id_catalogue: z.string().min(1).max(100).openapi({
      description: 'Product id of the SRM or BAAT catalogue (GET /api/catalogues/fertilizers); unknown ids are 422.',
      example: 'BAAT028',
    }),
    p_source: z.enum(['srm', 'baat']).optional().openapi({ description: 'The catalogue; checked against the product when given.' }),
  })
  .openapi('FarmFertilizerCreate');

export const catalogueFertilizerShape = {
  p_source: z.string().openapi({ description: 'Catalogue: srm or baat.' }),
  p_id_catalogue: z.string().openapi({ description: 'Code of the fertilizer in its catalogue.' }),
  p_name_nl: z.string().openapi({ description: 'Name of the fertilizer (Dutch).' }),
  p_type: z
    .enum(['mineral', 'manure', 'compost'])
    .nullable()
    .openapi({ description: 'Type used by the nitrogen balance; null counts as "other".' }),
  p_type_rvo: z.string().nullable().openapi({ description: 'Manure type code of the Dutch authority (RVO); null when it has none.' }),
  p_app_amount_unit: z.enum(['kg/ha', 'ton/ha', 'l/ha', 'm3/ha']).openapi({ description: 'Unit in which application amounts are sent.' }),
  p_app_method_options: z.array(z.string()).openapi({ description: 'The application methods this fertilizer may be applied with.' }),
  p_n_rt: nullableNumber('Total N, g N/kg.'),
  p_no3_rt: nullableNumber('Nitrate N, g N/kg.'),
  p_nh4_rt: nullableNumber('Ammonium N, g N/kg.'),
  p_n_wc: nullableNumber('N working coefficient, fraction.'),
  p_s_rt: nullableNumber('Sulphur, g SO3/kg.'),
  p_ef_nh3: nullableNumber('NH3 emission factor (mineral fertilizers), fraction of N.'),
  p_p_rt: nullableNumber('Phosphate, g P2O5/kg.'),
  p_k_rt: nullableNumber('Potash, g K2O/kg.'),
  p_eoc: nullableNumber('Effective organic carbon, g EOC/kg.'),
  p_eom: nullableNumber('Effective organic matter, g EOM/kg.'),
  p_mg_rt: nullableNumber('Magnesium, g MgO/kg.'),
  p_ca_rt: nullableNumber('Calcium, g CaO/kg.'),
  p_na_rt: nullableNumber('Sodium.'),
  p_cu_rt: nullableNumber('Copper, mg/kg.'),
  p_zn_rt: nullableNumber('Zinc, mg/kg.'),
  p_co_rt: nullableNumber('Cobalt, mg/kg.'),
  p_mn_rt: nullableNumber('Manganese, mg/kg.'),
  p_mo_rt: nullableNumber('Molybdenum, mg/kg.'),
  p_b_rt: nullableNumber('Boron, mg/kg.'),
  p_dm: nullableNumber('Dry matter, g/kg.'),
  p_density: nullableNumber('Density, kg/l.'),
};

export const catalogueFertilizerSchema = z.object(catalogueFertilizerShape).openapi('CatalogueFertilizer');

/** A catalogue row with exactly the documented columns (the source flags p_type_manure … are not part of the API). */
export const documentedFields = (entry: FertilizerEntry) =>
  Object.fromEntries(Object.keys(catalogueFertilizerShape).map((key) => [key, entry[key as keyof FertilizerEntry]])) as z.infer<
    typeof catalogueFertilizerSchema
  >;

export const farmFertilizerSchema = z
  .object({
    p_id: z.string().openapi({ description: "The farm's fertilizer identifier, used by applications." }),
    b_id_farm: z.string().openapi({ description: 'Identifier of the farm that acquired the fertilizer.' }),
    ...catalogueFertilizerShape,
    ...recordTimesShape,
  })
  .openapi('FarmFertilizer');

export type FarmFertilizerCreate = z.infer<typeof farmFertilizerCreateSchema>;
