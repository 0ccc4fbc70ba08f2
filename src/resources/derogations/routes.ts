// HTTP for a farm's derogations: list the years held; hold or give up one year.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import { authorize } from '../../access/roles.js';
import { json, noContent } from '../../http/responses.js';
import type { DatabaseHandle } from '../../db/client.js';
import { etagHeader, ifMatch, ifMatchParameter, recordResponse } from '../../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema, pageQuerySchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmIdParams } from '../farms/schemas.js';
import { derogationParams, derogationSchema } from './schemas.js';
import { holdDerogation, listDerogations, releaseDerogation } from './store.js';

const tags = ['Derogations'];

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}/derogations',
  operationId: 'listDerogationsOfFarm',
  tags,
  summary: 'List the years in which a farm holds a derogation',
  description: 'Ordered by year, earliest first.',
  security: apiKeySecurity,
  request: { params: farmIdParams, query: pageQuerySchema },
  responses: {
    200: { description: 'One page of derogations.', content: jsonContent(envelopeSchema(derogationSchema, 'DerogationPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const holdRoute = createRoute({
  method: 'put',
  path: '/api/farms/{b_id_farm}/derogations/{year}',
  operationId: 'holdDerogationOfFarm',
  tags,
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
  tags,
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

  app.openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const page = c.req.valid('query');
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    const { data, total } = await listDerogations(db, b_id_farm, page);
    return json(c, envelope(data, page, total), 200);
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
