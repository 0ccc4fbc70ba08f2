// The nitrogen balance on the wire: of a field and of a farm, every figure with its unit.
import { z } from '@hono/zod-openapi';
import { balanceFieldIdentity, calculatedFieldId, fieldErrorMessage, timeframeSchema } from '../schemas.js';

const kgN = (what: string) =>
  z
    .number()
    .int()
    .openapi({ description: `${what}, kg N/ha over the timeframe (integer, rounded half away from zero).` });
const item = z
  .object({
    id: z.string().openapi({ description: 'Identifier of the record (application, cultivation or harvest).' }),
    value: z.number().int().openapi({ description: "The record's contribution, kg N/ha (integer, rounded half away from zero)." }),
  })
  .openapi('BalanceItem', { description: 'One record and its contribution, kg N/ha.' });
const itemsOf = (key: string, what: string) =>
  z
    .object({ total: kgN(what), [key]: z.array(item).openapi({ description: `The ${key} that contribute, each with its part.` }) })
    .openapi({ description: `${what}: the total and each record's part, kg N/ha.` });

const fertilizerGroups = (what: string) =>
  z
    .object({
      total: kgN(`${what}, all fertilizers`),
      mineral: itemsOf('applications', `${what}, mineral fertilizers`),
      manure: itemsOf('applications', `${what}, manure`),
      compost: itemsOf('applications', `${what}, compost`),
      other: itemsOf('applications', `${what}, other fertilizers`),
    })
    .openapi({ description: `${what}, by type of fertilizer, kg N/ha.` });

export const fieldBalanceSchema = z
  .object({
    b_id: calculatedFieldId,
    balance: kgN('Balance: supply + removal + ammonia emission (positive is a surplus; nitrate leaching is not subtracted)'),
    supply: z
      .object({
        total: kgN('Supply'),
        fertilizers: fertilizerGroups('N applied'),
        fixation: itemsOf('cultivations', 'Biological fixation'),
        deposition: z.object({ total: kgN('Atmospheric deposition') }).openapi({ description: 'N from the air, kg N/ha.' }),
        mineralisation: z
          .object({
            total: kgN('Soil mineralisation'),
            years: z
              .array(
                z.object({
                  year: z.number().int().openapi({ description: 'Calendar year.' }),
                  value: z
                    .number()
                    .int()
                    .openapi({ description: 'Mineralisation in the part of that year inside the timeframe, kg N/ha.' }),
                }),
              )
              .optional()
              .openapi({ description: 'Mineralisation per calendar year of the timeframe.' }),
          })
          .openapi({ description: 'N released by the soil organic matter, kg N/ha.' }),
      })
      .openapi({ description: 'N brought onto the field, kg N/ha (positive).' }),
    removal: z
      .object({
        total: kgN('Removal (negative)'),
        harvests: itemsOf('harvests', 'Removal by harvests'),
        residues: itemsOf('cultivations', 'Removal of crop residues taken off the field'),
      })
      .openapi({ description: 'N taken off the field, kg N/ha (negative).' }),
    emission: z
      .object({
        total: kgN('Emission (negative): ammonia and nitrate'),
        ammonia: z
          .object({
            total: kgN('Ammonia emission'),
            fertilizers: fertilizerGroups('Ammonia emission'),
            residues: itemsOf('cultivations', 'Ammonia emission from crop residues left on the field'),
          })
          .openapi({ description: 'N lost to the air as ammonia, kg N/ha (negative); part of the balance.' }),
        nitrate: z
          .object({ total: kgN('Nitrate leaching, derived from a positive balance') })
          .openapi({ description: 'N expected to leach as nitrate, kg N/ha (negative); reported, not part of the balance.' }),
      })
      .openapi({ description: 'N lost to the environment, kg N/ha (negative).' }),
    target: kgN('Target surplus for the field over the timeframe'),
  })
  .openapi('FieldNitrogenBalance');

export const fieldResultSchema = z
  .object({
    ...balanceFieldIdentity,
    balance: fieldBalanceSchema
      .nullable()
      .openapi({ description: "The field's nitrogen balance and its terms; null when the field cannot be calculated." }),
    errorMessage: fieldErrorMessage,
  })
  .openapi('FieldNitrogenBalanceResult');

export const fieldBalanceResponseSchema = fieldResultSchema
  .extend({ timeframe: timeframeSchema })
  .openapi('FieldNitrogenBalanceResponse', { description: 'The nitrogen balance of one field, and the timeframe it covers.' });

const groupFigures = (what: string) =>
  z
    .object({
      total: kgN(`${what}, all fertilizers`),
      mineral: kgN(`${what}, mineral`),
      manure: kgN(`${what}, manure`),
      compost: kgN(`${what}, compost`),
      other: kgN(`${what}, other`),
    })
    .openapi({ description: `${what}, by type of fertilizer, kg N/ha.` });

export const farmBalanceSchema = z
  .object({
    balance: kgN('Area-weighted supply + removal + ammonia emission'),
    supply: z
      .object({
        total: kgN('Supply'),
        deposition: kgN('Deposition'),
        fixation: kgN('Fixation'),
        mineralisation: kgN('Mineralisation'),
        fertilizers: groupFigures('N applied'),
      })
      .openapi({ description: 'N brought onto the fields, kg N/ha (positive).' }),
    removal: z
      .object({ total: kgN('Removal'), harvests: kgN('Harvests'), residues: kgN('Residues') })
      .openapi({ description: 'N taken off the fields, kg N/ha (negative).' }),
    emission: z
      .object({
        total: kgN('Emission'),
        ammonia: z
          .object({ total: kgN('Ammonia'), residues: kgN('Ammonia from residues'), fertilizers: groupFigures('Ammonia') })
          .openapi({ description: 'N lost to the air as ammonia, kg N/ha (negative); part of the balance.' }),
        nitrate: kgN('Nitrate leaching (reported, not part of the balance)'),
      })
      .openapi({ description: 'N lost to the environment, kg N/ha (negative).' }),
    timeframe: timeframeSchema,
    target: kgN('Target'),
    fields: z.array(fieldResultSchema).openapi({ description: 'Every field of the farm in the timeframe, largest first.' }),
    hasErrors: z.boolean().openapi({ description: 'True when at least one field could not be calculated.' }),
    fieldErrorMessages: z
      .array(z.string())
      .openapi({ description: 'For each field that could not be calculated: which field, why, and what to add.' }),
    errorMessage: z.string().optional().openapi({ description: 'Only when the farm has no field in the timeframe.' }),
  })
  .openapi('FarmNitrogenBalance', {
    description:
      'Figures are means of the rounded field figures weighted by area, over the fields that could be calculated and are not buffer strips (kg N/ha).',
  });
