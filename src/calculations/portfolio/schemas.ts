// The wire format of a portfolio calculation: per farm its farm endpoint's answer without the per-field list,
// or why it could not be calculated, and the page with where to go on.
import { z } from '@hono/zod-openapi';
import { farmRoles } from '../../db/schema.js';
import { paginationSchema } from '../../http/pagination.js';
import { MAX_PAGE_FIELDS } from './work.js';

const farm = {
  b_id_farm: z.string().openapi({ description: 'Farm identifier.' }),
  b_name_farm: z.string().openapi({ description: 'Farm name.' }),
  role: z.enum(farmRoles).openapi({ description: 'Your effective role on the farm.' }),
};

export const rowErrorSchema = z
  .object({
    code: z.string().openapi({ description: 'The error code the farm endpoint would answer with, such as internal-error.' }),
    detail: z.string().openapi({ description: 'What went wrong; for internal-error, the error_id to quote.' }),
  })
  .openapi('PortfolioFarmError', { description: 'Why this farm could not be calculated; the other farms of the page are.' });

/** A page of rows whose `result` is `result`: the farm endpoint's answer without `fields`. */
export function portfolioPageSchema(result: z.ZodType, name: string) {
  const row = z
    .union([
      z
        .object({
          ...farm,
          result: result.openapi({ description: "The farm endpoint's answer for this farm, without its per-field list `fields`." }),
        })
        .openapi({ title: 'Calculated' }),
      z.object({ ...farm, error: rowErrorSchema }).openapi({ title: 'Not calculated' }),
    ])
    .openapi(`${name}Row`, { description: 'A farm of the organisation, with its result or with the error that stopped it.' });
  return z
    .object({
      data: z.array(row).openapi({ description: 'The farms of this page, in the order of GET /api/farms?organisation=.' }),
      pagination: paginationSchema
        .extend({
          next_offset: z
            .number()
            .int()
            .nullable()
            .openapi({
              description: `Where the next page starts; null after the last farm. A page ends before \`limit\` farms once its farms would hold more than ${MAX_PAGE_FIELDS} fields (never before its first farm).`,
            }),
        })
        .openapi({ description: 'Where this page lies among the farms of the organisation.' }),
    })
    .openapi(name);
}
