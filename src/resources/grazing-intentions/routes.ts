// HTTP for a farm's grazing intentions: list them; set the one of a year.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import type { DatabaseHandle } from '../../db/client.js';
import { etagHeader, recordResponse } from '../../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { pageQuerySchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmResource } from '../farms/routes.js';
import { recordList } from '../record-resource.js';
import { listRecords } from '../record-routes.js';
import { grazingIntentionParams, grazingIntentionSchema, grazingIntentionSetSchema } from './schemas.js';
import { listGrazingIntentions, setGrazingIntention } from './store.js';

const grazingIntentions = recordList({
  kind: 'grazing intention',
  plural: 'grazing intentions',
  schema: grazingIntentionSchema,
  parent: farmResource,
});

const setRoute = createRoute({
  method: 'put',
  path: '/api/farms/{b_id_farm}/grazing-intentions/{year}',
  operationId: 'setGrazingIntentionOfFarm',
  tags: grazingIntentions.names.tags,
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

  listRecords(app, db, grazingIntentions, {
    summary: 'List the grazing intentions of a farm',
    description: 'Ordered by year, earliest first. A year that is not listed counts as no intention to graze.',
    query: pageQuerySchema,
    list: listGrazingIntentions,
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
