// HTTP for the portfolio calculations: the nitrogen balance, organic-matter balance or usage norms of every
// farm shared with an organisation, a page of farms a request, each row exactly its farm endpoint's figures.
import { createRoute, type z } from '@hono/zod-openapi';
import type { Config } from '../../core/config.js';
import { describeError } from '../../core/describe-error.js';
import type { Logger } from '../../core/logger.js';
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { apiKeySecurity } from '../../http/openapi.js';
import { pageQuerySchema } from '../../http/pagination.js';
import { newErrorId } from '../../http/problem.js';
import { json } from '../../http/responses.js';
import { idParams, jsonContent } from '../../http/route-helpers.js';
import { listFarms } from '../../resources/farms/store.js';
import { requestedTimeframe } from '../dates.js';
import { farmNitrogenBalances } from '../nitrogen-balance/farms.js';
import { farmBalanceSchema } from '../nitrogen-balance/schemas.js';
import { farmNormsAnswers } from '../norms/farms.js';
import { requestedNormYear } from '../norms/requested-year.js';
import { farmNormsSchema, normsOptionsSchema } from '../norms/schemas.js';
import { NORM_YEARS } from '../norms/tables.js';
import { calculationErrors, calculationTags, rateNote } from '../operations.js';
import { calculationOptionsSchema } from '../schemas.js';
import { farmOrganicMatterBalances } from '../organic-matter-balance/farms.js';
import { farmOrganicMatterBalanceSchema } from '../organic-matter-balance/schemas.js';
import { portfolioPage, type FarmsCalculation } from './page.js';
import { withoutFields } from './rows.js';
import { portfolioPageSchema } from './schemas.js';
import { MAX_PAGE_FIELDS } from './work.js';

const organisationParams = idParams('org_id', 'Organisation identifier.');

const paging = `Pages over the farms shared with the organisation in the order of GET /api/farms?organisation= (\`limit\` 1–200, default 50, and \`offset\`); a page also ends early once its farms would hold more than ${MAX_PAGE_FIELDS} fields (never before its first farm): go on at \`pagination.next_offset\`. Each row is the farm endpoint's answer for that farm without its \`fields\`, or an \`error\` when the farm cannot be calculated, which never fails the page. Members of the organisation only (404 otherwise). One page counts as one request against the calculation limit.`;

interface PortfolioSpec<B, O> {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The farm endpoint's options body. */
  body: z.ZodType<B>;
  /** The farm endpoint's answer. */
  result: z.ZodObject;
  name: string;
  /** The calculation's options from the body, as the farm endpoint reads them (422 for a year without norms). */
  options: (body: B) => O;
  calculate: (options: O) => FarmsCalculation<object>;
}

export function portfolioRoutes(config: Config, database: DatabaseHandle, log: Logger) {
  const db = database.db;
  const deposition = config.depositionKgNPerHaPerYear;
  const app = new ApiRoutes();

  function portfolioRoute<B, O>(spec: PortfolioSpec<B, O>) {
    const route = createRoute({
      method: 'post',
      path: `/api/organisations/{org_id}/calculations/${spec.path}`,
      operationId: spec.operationId,
      tags: calculationTags,
      summary: spec.summary,
      description: `${spec.description} ${paging}`,
      security: apiKeySecurity,
      request: {
        params: organisationParams,
        query: pageQuerySchema,
        body: { required: false, content: jsonContent(spec.body as z.ZodType) },
      },
      responses: {
        200: {
          description: 'One page of the farms, each with its result or its error.',
          content: jsonContent(portfolioPageSchema(spec.result.omit({ fields: true }), spec.name)),
        },
        ...calculationErrors,
      },
    });
    app.openapi(route, async (c) => {
      const { org_id } = c.req.valid('param');
      const page = c.req.valid('query');
      const options = spec.options(c.req.valid('json') as B);
      const { data: farms, total } = await listFarms(database, c.get('principal'), { ...page, organisation: org_id });
      const unforeseen = (farmId: string, failure: unknown) => {
        const errorId = newErrorId();
        log.error(
          { error_id: errorId, request_id: c.get('requestId'), path: c.req.path, b_id_farm: farmId, error: describeError(failure) },
          'farm calculation failed',
        );
        return errorId;
      };
      const rows = await portfolioPage(db, farms, spec.calculate(options), unforeseen);
      const next = page.offset + rows.length;
      return json(
        c,
        { data: rows, pagination: { limit: page.limit, offset: page.offset, total, next_offset: next < total ? next : null } },
        200,
      );
    });
  }

  portfolioRoute({
    path: 'nitrogen-balance',
    operationId: 'calculateOrganisationNitrogenBalances',
    summary: 'Nitrogen balance of every farm of an organisation',
    description: `As POST /api/farms/{b_id_farm}/calculations/nitrogen-balance, for each farm. ${rateNote}`,
    body: calculationOptionsSchema,
    result: farmBalanceSchema,
    name: 'PortfolioNitrogenBalancePage',
    options: requestedTimeframe,
    calculate: (timeframe) => (farmIds) => farmNitrogenBalances(db, farmIds, timeframe, deposition, withoutFields),
  });

  portfolioRoute({
    path: 'organic-matter-balance',
    operationId: 'calculateOrganisationOrganicMatterBalances',
    summary: 'Organic-matter balance of every farm of an organisation',
    description: `As POST /api/farms/{b_id_farm}/calculations/organic-matter-balance, for each farm. ${rateNote}`,
    body: calculationOptionsSchema,
    result: farmOrganicMatterBalanceSchema,
    name: 'PortfolioOrganicMatterBalancePage',
    options: requestedTimeframe,
    calculate: (timeframe) => (farmIds) => farmOrganicMatterBalances(db, farmIds, timeframe, withoutFields),
  });

  portfolioRoute({
    path: 'norms',
    operationId: 'calculateOrganisationNorms',
    summary: 'Usage norms of every farm of an organisation',
    description: `As POST /api/farms/{b_id_farm}/calculations/norms, for each farm. Limited to 10 requests per minute per key, with the other calculations. A year other than ${NORM_YEARS.join(' or ')} is 422.`,
    body: normsOptionsSchema,
    result: farmNormsSchema,
    name: 'PortfolioNormsPage',
    options: requestedNormYear,
    calculate: (year) => (farmIds) => farmNormsAnswers(db, farmIds, year, withoutFields),
  });

  return app;
}
