// HTTP for cultivations: list and add per field; get, change and delete one.
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
import { cultivationCreateSchema, cultivationSchema, cultivationUpdateSchema } from './schemas.js';
import { createCultivation, deleteCultivation, getCultivation, listCultivations, updateCultivation } from './store.js';
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

const tags = ['Cultivations'];
const fieldIdParams = idParams('b_id', 'Field identifier.');
const cultivationIdParams = idParams('b_lu', 'Cultivation identifier.');

const listRoute = createRoute({
  method: 'get',
  path: '/api/fields/{b_id}/cultivations',
  operationId: 'listCultivationsOfField',
  tags,
  summary: 'List the cultivations of a field',
  description:
    'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only cultivations whose period [b_lu_start, b_lu_end, or open] overlaps the window.',
  security: apiKeySecurity,
  request: { params: fieldIdParams, query: pagedDateRangeQuerySchema },
  responses: {
    200: { description: 'One page of cultivations.', content: jsonContent(envelopeSchema(cultivationSchema, 'CultivationPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'unprocessable-entity'),
  },
});

const createCultivationRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/cultivations',
  operationId: 'createCultivationOnField',
  tags,
  summary: 'Add a cultivation to a field (owner or advisor)',
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: { required: true, content: jsonContent(cultivationCreateSchema) } },
  responses: {
    201: {
      description: 'The cultivation with its crop catalogue columns.',
      headers: { ...locationHeader, ...etagHeader },
      content: jsonContent(cultivationSchema),
    },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'unprocessable-entity'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/cultivations/{b_lu}',
  operationId: 'getCultivation',
  tags,
  summary: 'Get a cultivation',
  security: apiKeySecurity,
  request: { params: cultivationIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The cultivation.', headers: etagHeader, content: jsonContent(cultivationSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/api/cultivations/{b_lu}',
  operationId: 'updateCultivation',
  tags,
  summary: 'Change a cultivation (owner or advisor)',
  description: 'Any subset. Dates must agree with the stored ones and with the harvests (409 otherwise).',
  security: apiKeySecurity,
  request: { params: cultivationIdParams, body: { required: true, content: jsonContent(cultivationUpdateSchema) } },
  parameters: [ifMatchParameter],
  responses: {
    200: { description: 'The cultivation after the change.', headers: etagHeader, content: jsonContent(cultivationSchema) },
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
  path: '/api/cultivations/{b_lu}',
  operationId: 'deleteCultivation',
  tags,
  summary: 'Delete a cultivation and its harvests, permanently (fertilizer applications stay)',
  security: apiKeySecurity,
  request: { params: cultivationIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function cultivationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const query = c.req.valid('query');
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    const { data, total } = await listCultivations(db, b_id, query);
    return json(c, envelope(data, query, total), 200);
  });

  app.openapi(createCultivationRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: 'field', id: b_id },
      (tx) => createCultivation(tx, b_id, input),
      { action: 'create', kind: 'cultivation', id: (created) => created.b_lu },
      respondWithin(c, (cultivation) => recordResponse(c, cultivation, 201, { location: `/api/cultivations/${cultivation.b_lu}` })),
    );
  });

  app.openapi(getRoute, async (c) => {
    const { b_lu } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'cultivation', b_lu, 'read');
    const cultivation = await getCultivation(db, b_lu);
    if (!cultivation) throw notFound('The cultivation does not exist.');
    return readResponse(c, cultivation);
  });

  app.openapi(updateRoute, async (c) => {
    const { b_lu } = c.req.valid('param');
    const changes = c.req.valid('json');
    const precondition = ifMatch(c);
    const cultivation = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'cultivation', id: b_lu },
      (tx) => updateCultivation(tx, b_lu, changes, precondition),
      { action: 'update', kind: 'cultivation', id: b_lu },
    );
    return recordResponse(c, cultivation, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { b_lu } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(db, c.get('principal'), { kind: 'cultivation', id: b_lu }, (tx) => deleteCultivation(tx, b_lu, precondition), {
      action: 'delete',
      kind: 'cultivation',
      id: b_lu,
    });
    return noContent(c);
  });

  return app;
}
