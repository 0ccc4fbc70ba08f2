// HTTP for a farm's derogations: list the years held; hold or give up one year.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import { noContent } from '../../http/responses.js';
import type { DatabaseHandle } from '../../db/client.js';
import { etagHeader, ifMatch, ifMatchParameter, recordResponse } from '../../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, errorResponses } from '../../http/openapi.js';
import { pageQuerySchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmResource } from '../farms/routes.js';
import { recordList } from '../record-resource.js';
import { listRecords } from '../record-routes.js';
import { derogationParams, derogationSchema } from './schemas.js';
import { holdDerogation, listDerogations, releaseDerogation } from './store.js';

const derogations = recordList({ kind: 'derogation', plural: 'derogations', schema: derogationSchema, parent: farmResource });

const holdRoute = createRoute({
  method: 'put',
  path: '/api/farms/{b_id_farm}/derogations/{year}',
  operationId: 'holdDerogationOfFarm',
  tags: derogations.names.tags,
  summary: 'Record that a farm holds a derogation for a year (owner or advisor)',
  description: 'Idempotent: 201 when the year is new, 200 when the farm held it already (nothing changes). No body.',
  security: apiKeySecurity,
  request: { params: derogationParams },
  responses: {
    200: { description: 'The farm held the derogation already.', headers: etagHeader, content: jsonContent(derogationSchema) },
    201: { description: 'The derogation, recorded now.', headers: etagHeader, content: jsonContent(derogationSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden'),
  },
});

const releaseRoute = createRoute({
  method: 'delete',
  path: '/api/farms/{b_id_farm}/derogations/{year}',
  operationId: 'deleteDerogationOfFarm',
  tags: derogations.names.tags,
  summary: 'Remove the derogation of a year (owner or advisor)',
  security: apiKeySecurity,
  request: { params: derogationParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Removed. A year the farm does not hold (or no longer holds) answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function derogationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  listRecords(app, db, derogations, {
    summary: 'List the years in which a farm holds a derogation',
    description: 'Ordered by year, earliest first.',
    query: pageQuerySchema,
    list: listDerogations,
  });

  app.openapi(holdRoute, async (c) => {
    const { b_id_farm, year } = c.req.valid('param');
    const { derogation, created } = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'farm', id: b_id_farm },
      (tx) => holdDerogation(tx, b_id_farm, year),
      { action: (held) => (held.created ? 'create' : null), kind: 'derogation', id: String(year) },
    );
    return created ? recordResponse(c, derogation, 201) : recordResponse(c, derogation, 200);
  });

  app.openapi(releaseRoute, async (c) => {
    const { b_id_farm, year } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'farm', id: b_id_farm },
      (tx) => releaseDerogation(tx, b_id_farm, year, precondition),
      {
        action: 'delete',
        kind: 'derogation',
        id: String(year),
      },
    );
    return noContent(c);
  });

  return app;
}
