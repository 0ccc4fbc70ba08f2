// limit/offset query parameters and the pagination envelope every list answers with (docs/api.md).
import { z } from '@hono/zod-openapi';
import type { PageQuery } from '../db/paging.js';
import { authenticatedErrors, errorResponses } from './openapi.js';
import type { ErrorCode } from './problem.js';
import { jsonContent } from './route-helpers.js';

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;
// The largest offset PostgreSQL takes as an int4 without a cast.
const MAX_OFFSET = 2_147_483_647;

/**
 * A query integer as OpenAPI's `type: integer` reads it: decimal digits only. Plain coercion
 * (`Number(text)`) would also take `1e3`, `0x10`, ` 5` and an empty value (as 0).
 */
const wholeNumber = (min: number, tooSmall: string, max: number, tooLarge: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, tooSmall).max(max, tooLarge));

export const pageQuerySchema = z.object({
  limit: wholeNumber(1, 'must be at least 1', MAX_LIMIT, `must be at most ${MAX_LIMIT}`)
    .default(DEFAULT_LIMIT)
    .openapi({
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
      description: `Page size, 1–${MAX_LIMIT}.`,
      example: DEFAULT_LIMIT,
    }),
  offset: wholeNumber(0, 'must not be negative', MAX_OFFSET, 'is too large')
    .default(0)
    .openapi({ type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Number of items to skip.', example: 0 }),
});

/** Where a page lies in the whole list. */
export const paginationSchema = z
  .object({
    limit: z.number().int().openapi({ description: 'Limit applied.' }),
    offset: z.number().int().openapi({ description: 'Offset applied.' }),
    total: z.number().int().openapi({ description: 'Total number of items available.' }),
  })
  .openapi({ description: 'Where this page lies in the whole list.' });

export const envelopeSchema = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item).openapi({ description: 'Items of the requested page.' }),
      pagination: paginationSchema,
    })
    .openapi(name);

/** A list's responses: 200 with one page of `item`, its schema named `name`; or an error, `errors` beyond those of every list. */
export const pageResponses = <T extends z.ZodType>(description: string, item: T, name: string, ...errors: ErrorCode[]) => ({
  200: { description, content: jsonContent(envelopeSchema(item, name)) },
  ...errorResponses(...authenticatedErrors, 'validation-failed', ...errors),
});

/** The `pagination` member of a list's answer. */
export const pagination = (page: PageQuery, total: number) => ({ limit: page.limit, offset: page.offset, total });

export const envelope = <T>(data: T[], page: PageQuery, total: number) => ({ data, pagination: pagination(page, total) });
