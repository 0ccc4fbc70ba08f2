// HTTP for the nitrogen balance of a field and of a farm: they read stored records and never change them.
import { createRoute } from '@hono/zod-openapi';
import { authorize } from '../../access/roles.js';
import type { Config } from '../../core/config.js';
import { notFound } from '../../core/domain-errors.js';
import type { DatabaseHandle } from '../../db/client.js';
import { servedOnRememberedKey } from '../../access/remembered-key-routes.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { apiKeySecurity } from '../../http/openapi.js';
import { json } from '../../http/responses.js';
import { jsonContent } from '../../http/route-helpers.js';
import { farmIdParams } from '../../resources/farms/schemas.js';
import { requestedTimeframe } from '../dates.js';
import { answerOf, whole } from '../farms.js';
import { loadBalanceFields, theField } from '../inputs.js';
import { calculationErrors, calculationTags, fieldIdParams, rateNote, timeframeBody } from '../operations.js';
import { farmNitrogenBalances, nitrogenResult } from './farms.js';
import { farmBalanceSchema, fieldBalanceResponseSchema } from './schemas.js';

const fieldBalanceRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/calculations/nitrogen-balance',
  operationId: 'calculateFieldNitrogenBalance',
  tags: calculationTags,
  summary: 'Nitrogen balance of a field',
  description: `Over the timeframe (default: the current calendar year). A field that cannot be calculated answers 200 with balance null and an errorMessage saying what to add. ${rateNote}`,
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: timeframeBody },
  responses: { 200: { description: 'The balance.', content: jsonContent(fieldBalanceResponseSchema) }, ...calculationErrors },
});

const farmBalanceRoute = createRoute({
  method: 'post',
  path: '/api/farms/{b_id_farm}/calculations/nitrogen-balance',
  operationId: 'calculateFarmNitrogenBalance',
  tags: calculationTags,
  summary: 'Nitrogen balance of a farm',
  description: `Every field of the farm in the timeframe (default: the current calendar year); fields that cannot be calculated are listed with their message and left out of the farm figures. ${rateNote}`,
  security: apiKeySecurity,
  request: { params: farmIdParams, body: timeframeBody },
  responses: { 200: { description: 'The balance.', content: jsonContent(farmBalanceSchema) }, ...calculationErrors },
});

export function nitrogenBalanceRoutes(config: Config, database: DatabaseHandle) {
  const db = database.db;
  const deposition = config.depositionKgNPerHaPerYear;
  const app = new ApiRoutes();

  app.openapi(
    fieldBalanceRoute,
    servedOnRememberedKey(async (c) => {
      const { b_id } = c.req.valid('param');
      const timeframe = requestedTimeframe(c.req.valid('json'));
      await authorize(db, c.get('principal'), 'field', b_id, 'read');
      const field = theField(await loadBalanceFields(db, { b_id }, timeframe));
      if (!field) throw notFound('The field does not exist.');
      return json(c, { ...nitrogenResult(field, timeframe, deposition), timeframe }, 200);
    }),
  );

  app.openapi(
    farmBalanceRoute,
    servedOnRememberedKey(async (c) => {
      const { b_id_farm } = c.req.valid('param');
      const timeframe = requestedTimeframe(c.req.valid('json'));
      await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
      return json(c, answerOf(await farmNitrogenBalances(db, [b_id_farm], timeframe, deposition, whole), b_id_farm), 200);
    }),
  );

  return app;
}
