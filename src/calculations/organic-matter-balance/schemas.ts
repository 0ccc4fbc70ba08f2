// The organic-matter balance on the wire: every figure kg/ha over the requested timeframe, whole numbers.
import { z } from '@hono/zod-openapi';
import { balanceFieldIdentity, calculatedFieldId, fieldErrorMessage, timeframeSchema } from '../schemas.js';

const overTimeframe = 'over the requested timeframe (integer, rounded half away from zero)';
const kgEom = (what: string) =>
  z
    .number()
    .int()
    .openapi({ description: `${what}, kg effective organic matter/ha ${overTimeframe}.` });
const kgOm = (what: string) =>
  z
    .number()
    .int()
    .openapi({ description: `${what}, kg organic matter/ha ${overTimeframe}.` });

const item = z
  .object({
    id: z.string().openapi({ description: 'Identifier of the record (fertilizer application or cultivation).' }),
    value: kgEom("The record's supply"),
  })
  .openapi('OrganicMatterItem', { description: 'One record and the effective organic matter it supplies.' });
const itemsOf = (key: 'applications' | 'cultivations', what: string) =>
  z
    .object({ total: kgEom(what), [key]: z.array(item).openapi({ description: `The ${key} that supply it, each with its part.` }) })
    .openapi({ description: `${what}: the total and each record's part.` });

const example = {
  b_id: 'Qm9Yp2Ag3sJb0u5X7vRk1c',
  balance: 4622,
  supply: {
    total: 5708,
    fertilizers: {
      total: 1733,
      manure: {
        total: 1733,
        applications: [
          { id: 'VkzbG1Wc8eR2yTqL0nHs4A', value: 788 },
          { id: 'd9XfPq3Lm0sBt7UwEa2KcQ', value: 945 },
        ],
      },
      compost: { total: 0, applications: [] },
      other: { total: 0, applications: [{ id: 'Zt4HnR8cWq1Ls6VbKe0MpA', value: 0 }] },
    },
    cultivations: { total: 3975, cultivations: [{ id: 'AjHZxCCqi3cBeafoNPuJzA', value: 3975 }] },
    residues: { total: 0, cultivations: [] },
  },
  degradation: { total: -1086 },
};
const exampleTimeframe = { start: '2025-01-01', end: '2025-12-31' };

export const organicMatterBalanceSchema = z
  .object({
    b_id: calculatedFieldId,
    balance: kgEom('Balance: supply + degradation (positive: the soil gains organic matter)'),
    supply: z
      .object({
        total: kgEom('Supply'),
        fertilizers: z
          .object({
            total: kgEom('Supply by fertilizers'),
            manure: itemsOf('applications', 'Supply by manure'),
            compost: itemsOf('applications', 'Supply by compost'),
            other: itemsOf('applications', 'Supply by other fertilizers (mineral products with EOM, products without a type)'),
          })
          .openapi({
            description: 'Effective organic matter applied, by type of fertilizer; products without an EOM content are left out.',
          }),
        cultivations: itemsOf('cultivations', 'Supply by crops (roots, stubble, green manure), each cultivation in full'),
        residues: itemsOf('cultivations', 'Supply by crop residues of cultivations ending in the timeframe, unless removed'),
      })
      .openapi({ description: 'Effective organic matter brought onto the field (positive).' }),
    degradation: z
      .object({ total: kgOm('Soil organic matter decomposed (negative)') })
      .openapi({ description: 'The annual decomposition times the timeframe in years (days / 365).' }),
  })
  .openapi('FieldOrganicMatterBalance', { example });

export const organicMatterFieldResultSchema = z
  .object({
    ...balanceFieldIdentity,
    balance: organicMatterBalanceSchema
      .nullable()
      .openapi({ description: "The field's organic-matter balance and its terms; null when the field cannot be calculated." }),
    errorMessage: fieldErrorMessage,
  })
  .openapi('FieldOrganicMatterBalanceResult');

export const organicMatterFieldResponseSchema = organicMatterFieldResultSchema
  .extend({ timeframe: timeframeSchema })
  .openapi('FieldOrganicMatterBalanceResponse', {
    description: 'The organic-matter balance of one field, and the timeframe it covers.',
    example: { b_id: example.b_id, b_area: 12.5, b_bufferstrip: false, balance: example, timeframe: exampleTimeframe },
  });

export const farmOrganicMatterBalanceSchema = z
  .object({
    balance: kgEom('Area-weighted supply + degradation'),
    supply: kgEom('Area-weighted supply'),
    degradation: kgOm('Area-weighted degradation (negative)'),
    fields: z.array(organicMatterFieldResultSchema).openapi({ description: 'Every field of the farm in the timeframe, largest first.' }),
    hasErrors: z.boolean().openapi({ description: 'True when at least one field could not be calculated, or the farm has none.' }),
    fieldErrorMessages: z
      .array(z.string())
      .openapi({ description: 'For each field that could not be calculated, its errorMessage, in the order of `fields`.' }),
    errorMessage: z.string().optional().openapi({ description: 'Only when the farm has no field in the timeframe: "No fields in input".' }),
    timeframe: timeframeSchema,
  })
  .openapi('FarmOrganicMatterBalance', {
    description:
      'Means of the rounded field totals weighted by area, over the fields that could be calculated and are not buffer strips; the balance is the sum of the two unrounded means.',
    example: {
      balance: 4622,
      supply: 5708,
      degradation: -1086,
      fields: [{ b_id: example.b_id, b_area: 12.5, b_bufferstrip: false, balance: example }],
      hasErrors: false,
      fieldErrorMessages: [],
      timeframe: exampleTimeframe,
    },
  });
