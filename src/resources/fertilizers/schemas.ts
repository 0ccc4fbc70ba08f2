// A farm's fertilizers: catalogue products the farm has acquired.
import { z } from '@hono/zod-openapi';
import { recordTimesShape } from '../record-times.js';
import type { FertilizerEntry } from '../../catalogues/fertilizers.js';

export const farmFertilizerCreateSchema = z
  .strictObject({
    p_id_catalogue: z.string().min(1).max(100).openapi({
      description: 'Product id of the SRM or BAAT catalogue (GET /api/catalogues/fertilizers); unknown ids are 422.',
      example: 'BAAT028',
    }),
    p_source: z.enum(['srm', 'baat']).optional().openapi({ description: 'The catalogue; checked against the product when given.' }),
  })
  .openapi('FarmFertilizerCreate');

const content = (description: string) => z.number().nullable().openapi({ description });

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
  p_n_rt: content('Total N, g N/kg.'),
  p_no3_rt: content('Nitrate N, g N/kg.'),
  p_nh4_rt: content('Ammonium N, g N/kg.'),
  p_n_wc: content('N working coefficient, fraction.'),
  p_s_rt: content('Sulphur, g SO3/kg.'),
  p_ef_nh3: content('NH3 emission factor (mineral fertilizers), fraction of N.'),
  p_p_rt: content('Phosphate, g P2O5/kg.'),
  p_k_rt: content('Potash, g K2O/kg.'),
  p_eoc: content('Effective organic carbon, g EOC/kg.'),
  p_eom: content('Effective organic matter, g EOM/kg.'),
  p_mg_rt: content('Magnesium, g MgO/kg.'),
  p_ca_rt: content('Calcium, g CaO/kg.'),
  p_na_rt: content('Sodium.'),
  p_cu_rt: content('Copper, mg/kg.'),
  p_zn_rt: content('Zinc, mg/kg.'),
  p_co_rt: content('Cobalt, mg/kg.'),
  p_mn_rt: content('Manganese, mg/kg.'),
  p_mo_rt: content('Molybdenum, mg/kg.'),
  p_b_rt: content('Boron, mg/kg.'),
  p_dm: content('Dry matter, g/kg.'),
  p_density: content('Density, kg/l.'),
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
