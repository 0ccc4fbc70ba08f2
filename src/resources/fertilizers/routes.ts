// HTTP for a farm's fertilizers: list and acquire per farm; get and delete one.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import { respondWithin } from '../../http/write-response.js';
import { authorize } from '../../access/roles.js';
import type { DatabaseHandle } from '../../db/client.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema, pageQuerySchema } from '../../http/pagination.js';
import { notFound } from '../../core/domain-errors.js';
import { idParams, jsonContent, locationHeader } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmIdParams } from '../farms/schemas.js';
import { farmFertilizerCreateSchema, farmFertilizerSchema } from './schemas.js';
import { acquireFertilizer, deleteFarmFertilizer, getFarmFertilizer, listFarmFertilizers } from './store.js';
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

const tags = ['Fertilizers'];
const fertilizerIdParams = idParams('p_id', "The farm's fertilizer identifier.");

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}/fertilizers',
  operationId: 'listFertilizersOfFarm',
  tags,
  summary: 'List the fertilizers a farm has acquired',
  description: 'Ordered by creation time, then identifier. Each carries its catalogue values.',
  security: apiKeySecurity,
  request: { params: farmIdParams, query: pageQuerySchema },
  responses: {
    200: { description: 'One page of fertilizers.', content: jsonContent(envelopeSchema(farmFertilizerSchema, 'FarmFertilizerPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const acquireRoute = createRoute({
  method: 'post',
  path: '/api/farms/{b_id_farm}/fertilizers',
  operationId: 'acquireFertilizerForFarm',
  tags,
  summary: 'Acquire a catalogue fertilizer for a farm (owner or advisor)',
  security: apiKeySecurity,
  request: { params: farmIdParams, body: { required: true, content: jsonContent(farmFertilizerCreateSchema) } },
  responses: {
    201: {
      description: "The farm's fertilizer; its p_id is what applications use.",
      headers: { ...locationHeader, ...etagHeader },
      content: jsonContent(farmFertilizerSchema),
    },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'unprocessable-entity'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/fertilizers/{p_id}',
  operationId: 'getFertilizer',
  tags,
  summary: "Get a farm's fertilizer",
  security: apiKeySecurity,
  request: { params: fertilizerIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The fertilizer.', headers: etagHeader, content: jsonContent(farmFertilizerSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/fertilizers/{p_id}',
  operationId: 'deleteFertilizer',
  tags,
  summary: "Delete a farm's fertilizer, permanently (owner or advisor)",
  description: 'A fertilizer still used by an application is 409.',
  security: apiKeySecurity,
  request: { params: fertilizerIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(
      ...authenticatedErrors,
      ...bodyCheckErrors,
      'validation-failed',
      'not-found',
      'forbidden',
      'conflict',
      'precondition-failed',
    ),
  },
});

export function fertilizerRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const page = c.req.valid('query');
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    const { data, total } = await listFarmFertilizers(db, b_id_farm, page);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(acquireRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: 'farm', id: b_id_farm },
      (tx) => acquireFertilizer(tx, b_id_farm, input),
      { action: 'create', kind: 'fertilizer', id: (f) => f.p_id },
      respondWithin(c, (fertilizer) => recordResponse(c, fertilizer, 201, { location: `/api/fertilizers/${fertilizer.p_id}` })),
    );
  });

  app.openapi(getRoute, async (c) => {
    const { p_id } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'fertilizer', p_id, 'read');
    const fertilizer = await getFarmFertilizer(db, p_id);
    if (!fertilizer) throw notFound('The fertilizer does not exist.');
    return readResponse(c, fertilizer);
  });

  app.openapi(deleteRoute, async (c) => {
    const { p_id } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(db, c.get('principal'), { kind: 'fertilizer', id: p_id }, (tx) => deleteFarmFertilizer(tx, p_id, precondition), {
      action: 'delete',
      kind: 'fertilizer',
      id: p_id,
    });
    return noContent(c);
  });

  return app;
}
