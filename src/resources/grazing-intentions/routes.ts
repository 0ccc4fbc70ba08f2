// HTTP for a farm's grazing intentions: list them; set the one of a year.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import { authorize } from '../../access/roles.js';
import { json } from '../../http/responses.js';
import type { DatabaseHandle } from '../../db/client.js';
import { etagHeader, recordResponse } from '../../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema, pageQuerySchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmIdParams } from '../farms/schemas.js';
import { grazingIntentionParams, grazingIntentionSchema, grazingIntentionSetSchema } from './schemas.js';
import { listGrazingIntentions, setGrazingIntention } from './store.js';

const tags = ['Grazing intentions'];

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}/grazing-intentions',
  operationId: 'listGrazingIntentionsOfFarm',
  tags,
  summary: 'List the grazing intentions of a farm',
  description: 'Ordered by year, earliest first. A year that is not listed counts as no intention to graze.',
  security: apiKeySecurity,
  request: { params: farmIdParams, query: pageQuerySchema },
  responses: {
    200: {
      description: 'One page of grazing intentions.',
      content: jsonContent(envelopeSchema(grazingIntentionSchema, 'GrazingIntentionPage')),
    },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const setRoute = createRoute({
  method: 'put',
  path: '/api/farms/{b_id_farm}/grazing-intentions/{year}',
  operationId: 'setGrazingIntentionOfFarm',
  tags,
  summary: 'Set whether a farm intends to graze in a year (owner or advisor)',
  description: '201 when the year had no intention yet, 200 when it had one (changed, or the same and left as it was).',
  security: apiKeySecurity,
  request: { params: grazingIntentionParams, body: { required: true, content: jsonContent(grazingIntentionSetSchema) } },
  responses: {
    200: { description: 'The grazing intention, changed or as it was.', headers: etagHeader, content: jsonContent(grazingIntentionSchema) },
    201: { description: 'The grazing intention, recorded now.', headers: etagHeader, content: jsonContent(grazingIntentionSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden'),
  },
});

export function grazingIntentionRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const page = c.req.valid('query');
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    const { data, total } = await listGrazingIntentions(db, b_id_farm, page);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(setRoute, async (c) => {
    const { b_id_farm, year } = c.req.valid('param');
    const { b_grazing_intention } = c.req.valid('json');
    const { grazingIntention, change } = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'farm', id: b_id_farm },
      (tx) => setGrazingIntention(tx, b_id_farm, year, b_grazing_intention),
      { action: (set) => set.change, kind: 'grazing intention', id: String(year) },
    );
    return change === 'create' ? recordResponse(c, grazingIntention, 201) : recordResponse(c, grazingIntention, 200);
  });

  return app;
}
