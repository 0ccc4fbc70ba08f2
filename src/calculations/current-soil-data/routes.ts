// HTTP for a field's current soil data: a read, with an ETag.
import { createRoute } from '@hono/zod-openapi';
import { authorize } from '../../access/roles.js';
import { ApiRoutes } from '../../http/api-routes.js';
import type { DatabaseHandle } from '../../db/client.js';
import { etagHeader, ifNoneMatchParameter, notModifiedResponse, readResponse } from '../../http/etag.js';
import { apiKeySecurity, authenticatedErrors, errorResponses } from '../../http/openapi.js';
import { idParams, jsonContent } from '../../http/route-helpers.js';
import { currentSoilDataSchema } from './schemas.js';
import { currentSoilData } from './inputs.js';

const currentSoilDataRoute = createRoute({
  method: 'get',
  path: '/api/fields/{b_id}/current-soil-data',
  operationId: 'getCurrentSoilDataOfField',
  tags: ['Soil analyses'],
  summary: 'The newest value of each soil parameter of a field',
  description:
    'For each soil parameter with a value, the newest one and the analysis it comes from: by sampling date, undated analyses last; of two sampled on the same day, the later-recorded one. The same rule the calculations use, though they take only the analyses sampled within their timeframe, and undated ones.',
  security: apiKeySecurity,
  request: { params: idParams('b_id', 'Field identifier.') },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The current soil data.', headers: etagHeader, content: jsonContent(currentSoilDataSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

export function currentSoilDataRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(currentSoilDataRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    return readResponse(c, { b_id, data: await currentSoilData(db, b_id) });
  });

  return app;
}
