// HTTP for the organic-matter balance: a read of the field's or farm's records that changes nothing.
import { createRoute } from '@hono/zod-openapi';
import { authorize } from '../../access/roles.js';
import { notFound } from '../../core/domain-errors.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { json } from '../../http/responses.js';
import type { DatabaseHandle } from '../../db/client.js';
import { apiKeySecurity } from '../../http/openapi.js';
import { jsonContent } from '../../http/route-helpers.js';
import { farmIdParams } from '../../resources/farms/schemas.js';
import { requestedTimeframe } from '../dates.js';
import { answerOf, whole } from '../farms.js';
import { theField } from '../inputs.js';
import { calculationErrors, calculationTags, fieldIdParams, rateNote, timeframeBody } from '../operations.js';
import { farmOrganicMatterBalances, organicMatterResult } from './farms.js';
import { readOrganicMatterFields } from './inputs.js';
import { farmOrganicMatterBalanceSchema, organicMatterFieldResponseSchema } from './schemas.js';

const units =
  'Figures are kg/ha over the requested timeframe, not per year: every crop, residue and application counts once, while the degradation is a yearly rate times the timeframe in years (days / 365). A one-year timeframe gives the yearly figures.';

const fieldRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/calculations/organic-matter-balance',
  operationId: 'calculateFieldOrganicMatterBalance',
  tags: calculationTags,
  summary: 'Organic-matter balance of a field',
  description: `Effective organic matter supplied by fertilizers, crops and crop residues, against the soil organic matter decomposed, over the timeframe (default: the current calendar year). ${units} A field that cannot be calculated answers 200 with balance null and an errorMessage saying what to add. ${rateNote}`,
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: timeframeBody },
  responses: { 200: { description: 'The balance.', content: jsonContent(organicMatterFieldResponseSchema) }, ...calculationErrors },
});

const farmRoute = createRoute({
  method: 'post',
  path: '/api/farms/{b_id_farm}/calculations/organic-matter-balance',
  operationId: 'calculateFarmOrganicMatterBalance',
  tags: calculationTags,
  summary: 'Organic-matter balance of a farm',
  description: `Every field of the farm in the timeframe (default: the current calendar year), and the area-weighted farm figures; fields that cannot be calculated are listed with their message and left out of the farm figures. ${units} ${rateNote}`,
  security: apiKeySecurity,
  request: { params: farmIdParams, body: timeframeBody },
  responses: { 200: { description: 'The balance.', content: jsonContent(farmOrganicMatterBalanceSchema) }, ...calculationErrors },
});

export function organicMatterBalanceRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(fieldRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const timeframe = requestedTimeframe(c.req.valid('json'));
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    const field = theField(await readOrganicMatterFields(db, { b_id }, timeframe));
    if (!field) throw notFound('The field does not exist.');
    return json(c, { ...organicMatterResult(field, timeframe), timeframe }, 200);
  });

  app.openapi(farmRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const timeframe = requestedTimeframe(c.req.valid('json'));
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    return json(c, answerOf(await farmOrganicMatterBalances(db, [b_id_farm], timeframe, whole), b_id_farm), 200);
  });

  return app;
}
