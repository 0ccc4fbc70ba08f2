// The usage-norm endpoints on the wire: the options body and the answers, every figure with its unit.
import { z } from '@hono/zod-openapi';
import { unprocessable } from '../../http/validation.js';
import { productRoomSchema } from './product-room-schemas.js';
import { DOSE_NORMS } from './recommendation.js';
import { NORM_YEARS } from './tables.js';

export const normsOptionsSchema = z
  .strictObject({
    year: z
      .number()
      .int()
      .optional()
      .openapi({ description: `Calendar year of the norms: ${NORM_YEARS.join(' or ')}; default the current year.`, example: 2025 }),
  })
  .superRefine((options, ctx) => {
    if (options.year !== undefined && !(NORM_YEARS as readonly number[]).includes(options.year)) {
      ctx.addIssue({
        code: 'custom',
        path: ['year'],
        message: `must be a year whose norms are known: ${NORM_YEARS.join(', ')}`,
        params: unprocessable,
      });
    }
  })
  .openapi('NormsOptions', { description: 'Optional. A calculation never changes stored data.' });

const year = z.number().int().openapi({ description: 'Calendar year of the norms.' });

const failure = z
  .object({
    error: z.enum(['not-applicable', 'not-determinable']).openapi({
      description:
        'not-applicable: the law sets no such norm here (a crop without a nitrogen norm, no soil phosphate, grassland renewed outside its window); not-determinable: the stored data do not decide it (no soil region, a crop group whose sub-type cannot be told).',
    }),
    message: z.string().openapi({ description: 'Why, and where a record can be added or corrected, what to add.' }),
  })
  .openapi('NormFailure', { description: 'A norm or filling that has no value.' });

const NORM_UNITS = { nitrogen: 'kg N/ha', manure: 'kg N/ha', phosphate: 'kg P2O5/ha', renure: 'kg N/ha' } as const;
const NORM_NAMES = {
  nitrogen: 'Nitrogen usage norm (total workable N, stikstofgebruiksnorm)',
  manure: 'Animal-manure norm (N from animal manure, dierlijke-mest-gebruiksnorm)',
  phosphate: 'Phosphate usage norm (fosfaatgebruiksnorm)',
  renure: 'Renure norm (N from Renure products, on top of the animal-manure norm; from 2026)',
} as const;
type Norm = keyof typeof NORM_UNITS;

const normValue = (norm: Norm) =>
  z
    .union([
      z
        .object({
          normValue: z.number().openapi({ description: `The norm, ${NORM_UNITS[norm]}.` }),
          normSource: z
            .string()
            .openapi({ description: 'Where the value comes from: the table row, sub-type and reduction (RVO wording).' }),
        })
        .openapi({ description: `${NORM_NAMES[norm]}, ${NORM_UNITS[norm]}.` }),
      failure,
    ])
    .openapi({ description: `${NORM_NAMES[norm]}: its value and source, or why it has none.` });

const fillingOf = (norm: Norm) =>
  z
    .union([
      z
        .object({
          normFilling: z
            .number()
            .openapi({ description: `How much of the norm the applications of the year fill, ${NORM_UNITS[norm]} (not rounded).` }),
          applicationFilling: z
            .array(
              z.object({
                p_app_id: z.string().openapi({ description: 'Application identifier.' }),
                normFilling: z
                  .number()
                  .openapi({ description: `What this application fills, ${NORM_UNITS[norm]} (0 when it does not count).` }),
                normFillingDetails: z
                  .string()
                  .optional()
                  .openapi({ description: 'How it counts: the working coefficient, or the organic-rich phosphate discount.' }),
              }),
            )
            .openapi({ description: 'Every application of the year on the field, newest first.' }),
        })
        .openapi({ description: `Filling of the ${norm} norm, ${NORM_UNITS[norm]}.` }),
      failure,
    ])
    .openapi({ description: `Filling of the ${norm} norm by the applications of the year, or why it has no value.` });

const perNorm = <T extends z.ZodType>(of: (norm: Norm) => T, what: string) =>
  z
    .object({ nitrogen: of('nitrogen'), manure: of('manure'), phosphate: of('phosphate'), renure: of('renure').optional() })
    .openapi({ description: `${what}; renure only from 2026.` });

const roomOf = (norm: Norm, scope: string) =>
  z
    .number()
    .nullable()
    .openapi({
      description: `Room left: norm − filling, ${scope === 'field' ? NORM_UNITS[norm] : NORM_UNITS[norm].replace('/ha', ' for the farm')}; negative is over the norm; null when the norm or its filling has no value.`,
    });

export const fieldNormsSchema = z
  .object({
    b_id: z.string().openapi({ description: 'Field identifier.' }),
    b_area: z.number().openapi({ description: 'Area, ha.' }),
    norms: perNorm(normValue, 'Each usage norm of the field, kg/ha'),
    filling: perNorm(fillingOf, 'How far the applications of the year fill each norm, kg/ha'),
    room: perNorm((norm) => roomOf(norm, 'field'), 'The room left under each norm, kg/ha'),
  })
  .openapi('FieldNorms', { description: 'The usage norms of a field for a year, their filling and the room left, per hectare.' });

export const fieldNormsResponseSchema = fieldNormsSchema
  .extend({ year })
  .openapi('FieldNormsResponse', { description: 'The usage norms of one field for a year.' });

const farmKg = (norm: Norm, what: string) =>
  z
    .number()
    .int()
    .openapi({
      description: `${what}, ${NORM_UNITS[norm].replace('/ha', '')} for the farm (Σ per-hectare figure × area, rounded half-up).`,
    });
const farmPerNorm = (what: string) =>
  z
    .object({
      nitrogen: farmKg('nitrogen', what),
      manure: farmKg('manure', what),
      phosphate: farmKg('phosphate', what),
      renure: farmKg('renure', what).optional(),
    })
    .openapi({ description: `${what} per norm over the fields in the totals; renure only from 2026.` });

export const farmNormsSchema = z
  .object({
    year,
    norms: farmPerNorm('Norm'),
    filling: farmPerNorm('Filling'),
    room: farmPerNorm('Room left (rounded norm − rounded filling; negative is over the norm)'),
    fieldsInTotals: z
      .array(z.string())
      .openapi({ description: 'The fields whose every norm and filling has a value: they make the totals.' }),
    fieldsLeftOut: z
      .array(
        z
          .object({ b_id: z.string().openapi({ description: 'Field identifier.' }) })
          .extend(failure.shape)
          .openapi({ description: 'A field left out of the totals, and its first norm or filling without a value.' }),
      )
      .openapi({ description: 'Fields of the year left out of the totals because a norm or filling has no value.' }),
    fields: z
      .array(fieldNormsSchema)
      .openapi({ description: 'Every field of the farm in the year (its period overlaps the year), largest first.' }),
  })
  .openapi('FarmNorms', { description: 'The usage norms of a farm for a year: totals in kg for the farm, and each field per hectare.' });

export const recommendationSchema = z
  .object({
    year,
    room: z
      .object({
        nitrogen: roomOf('nitrogen', 'field'),
        manure: roomOf('manure', 'field'),
        phosphate: roomOf('phosphate', 'field'),
        renure: roomOf('renure', 'field').optional(),
      })
      .openapi({
        description:
          'How much may still be applied in the year: workable N (nitrogen), N from animal manure (manure), phosphate, and from 2026 N from Renure products on top of the animal-manure norm.',
      }),
    binding: z.enum(DOSE_NORMS).nullable().openapi({
      description:
        'The norm of nitrogen, manure and phosphate with the least room left (kg/ha against kg/ha): the one that ends further applications first. null when one of the three has no value.',
    }),
    norms: z
      .string()
      .openapi({ description: 'Where the norms, their sources and the filling per application are: POST with {"year"} as body.' }),
    message: z.string().openapi({ description: 'The recommendation in words.' }),
    application_date: z.string().openapi({
      format: 'date',
      description:
        "The day on which an application of each of the farm's fertilizers is weighed: the one asked for, or today kept within the year.",
    }),
    fertilizers: z.array(productRoomSchema).openapi({
      description: 'Each fertilizer the farm holds (in the order acquired) and the most of it that still fits on the field in the year.',
    }),
  })
  .openapi('DoseRecommendation', {
    description: 'The room left under the Dutch usage norms of the calendar year of the timeframe, kg/ha.',
  });
