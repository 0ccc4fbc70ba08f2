// HTTP for soil analyses: list and add per field; get, change and delete one.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import { respondWithin } from '../../http/write-response.js';
import { authorize } from '../../access/roles.js';
import type { DatabaseHandle } from '../../db/client.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema } from '../../http/pagination.js';
import { notFound } from '../../core/domain-errors.js';
import { idParams, jsonContent, locationHeader } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { soilAnalysisCreateSchema, soilAnalysisSchema, soilAnalysisUpdateSchema } from './schemas.js';
import { createSoilAnalysis, deleteSoilAnalysis, getSoilAnalysis, listSoilAnalyses, updateSoilAnalysis } from './store.js';
import { json, noContent } from '../../http/responses.js';
import {
  etagHeader,
  ifMatch,
  ifMatchParameter,
  ifNoneMatchParameter,
  notModifiedResponse,
  readResponse,
  recordResponse,
} from '../../http/etag.js';

const tags = ['Soil analyses'];
const fieldIdParams = idParams('b_id', 'Field identifier.');
const analysisIdParams = idParams('a_id', 'Soil analysis identifier.');

const listRoute = createRoute({
  method: 'get',
  path: '/api/fields/{b_id}/soil-analyses',
  operationId: 'listSoilAnalysesOfField',
  tags,
  summary: 'List the soil analyses of a field',
  description:
    'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only analyses whose b_sampling_date lies in the window.',
  security: apiKeySecurity,
  request: { params: fieldIdParams, query: pagedDateRangeQuerySchema },
  responses: {
    200: { description: 'One page of soil analyses.', content: jsonContent(envelopeSchema(soilAnalysisSchema, 'SoilAnalysisPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'unprocessable-entity'),
  },
});

const createAnalysisRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/soil-analyses',
  operationId: 'createSoilAnalysisOnField',
  tags,
  summary: 'Add a soil analysis to a field (owner or advisor)',
  description: 'A parameter outside its physical range is 400 naming it; a lower depth not below the upper depth is 422.',
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: { required: true, content: jsonContent(soilAnalysisCreateSchema) } },
  responses: {
    201: { description: 'The soil analysis.', headers: { ...locationHeader, ...etagHeader }, content: jsonContent(soilAnalysisSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'unprocessable-entity'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/soil-analyses/{a_id}',
  operationId: 'getSoilAnalysis',
  tags,
  summary: 'Get a soil analysis',
  security: apiKeySecurity,
  request: { params: analysisIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The soil analysis.', headers: etagHeader, content: jsonContent(soilAnalysisSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/api/soil-analyses/{a_id}',
  operationId: 'updateSoilAnalysis',
  tags,
  summary: 'Change a soil analysis (owner or advisor)',
  security: apiKeySecurity,
  request: { params: analysisIdParams, body: { required: true, content: jsonContent(soilAnalysisUpdateSchema) } },
  parameters: [ifMatchParameter],
  responses: {
    200: { description: 'The soil analysis after the change.', headers: etagHeader, content: jsonContent(soilAnalysisSchema) },
    ...errorResponses(
      ...authenticatedErrors,
      ...bodyErrors,
      'not-found',
      'forbidden',
      'conflict',
      'unprocessable-entity',
      'precondition-failed',
    ),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/soil-analyses/{a_id}',
  operationId: 'deleteSoilAnalysis',
  tags,
  summary: 'Delete a soil analysis with its sampling, permanently',
  security: apiKeySecurity,
  request: { params: analysisIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function soilAnalysisRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const query = c.req.valid('query');
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    const { data, total } = await listSoilAnalyses(db, b_id, query);
    return json(c, envelope(data, query, total), 200);
  });

  app.openapi(createAnalysisRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: 'field', id: b_id },
      (tx) => createSoilAnalysis(tx, b_id, input),
      { action: 'create', kind: 'soil analysis', id: (a) => a.a_id },
      respondWithin(c, (analysis) => recordResponse(c, analysis, 201, { location: `/api/soil-analyses/${analysis.a_id}` })),
    );
  });

  app.openapi(getRoute, async (c) => {
    const { a_id } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'soil analysis', a_id, 'read');
    const analysis = await getSoilAnalysis(db, a_id);
    if (!analysis) throw notFound('The soil analysis does not exist.');
    return readResponse(c, analysis);
  });

  app.openapi(updateRoute, async (c) => {
    const { a_id } = c.req.valid('param');
    const changes = c.req.valid('json');
    const precondition = ifMatch(c);
    const analysis = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'soil analysis', id: a_id },
      (tx) => updateSoilAnalysis(tx, a_id, changes, precondition),
      { action: 'update', kind: 'soil analysis', id: a_id },
    );
    return recordResponse(c, analysis, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { a_id } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(db, c.get('principal'), { kind: 'soil analysis', id: a_id }, (tx) => deleteSoilAnalysis(tx, a_id, precondition), {
      action: 'delete',
      kind: 'soil analysis',
      id: a_id,
    });
    return noContent(c);
  });

  return app;
}
