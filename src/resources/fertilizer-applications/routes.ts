// HTTP for fertilizer applications: list and add per field; get, change and delete one.
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
import { applicationCreateSchema, applicationSchema, applicationUpdateSchema } from './schemas.js';
import { createApplication, deleteApplication, getApplication, listApplications, updateApplication } from './store.js';
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

const tags = ['Fertilizer applications'];
const fieldIdParams = idParams('b_id', 'Field identifier.');
const applicationIdParams = idParams('p_app_id', 'Application identifier.');

const listRoute = createRoute({
  method: 'get',
  path: '/api/fields/{b_id}/fertilizer-applications',
  operationId: 'listFertilizerApplicationsOfField',
  tags,
  summary: 'List the fertilizer applications of a field',
  description:
    'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only applications dated within the window.',
  security: apiKeySecurity,
  request: { params: fieldIdParams, query: pagedDateRangeQuerySchema },
  responses: {
    200: { description: 'One page of applications.', content: jsonContent(envelopeSchema(applicationSchema, 'FertilizerApplicationPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'unprocessable-entity'),
  },
});

const createApplicationRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/fertilizer-applications',
  operationId: 'createFertilizerApplicationOnField',
  tags,
  summary: 'Record a fertilizer application on a field (owner or advisor)',
  description:
    "The amount is sent in the fertilizer's unit and stored in kg/ha (ton/ha × 1000; l/ha × density; m3/ha × 1000 × density). A p_id that is not one of the farm's fertilizers, another unit, or a volume without density is 422.",
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: { required: true, content: jsonContent(applicationCreateSchema) } },
  responses: {
    201: { description: 'The application.', headers: { ...locationHeader, ...etagHeader }, content: jsonContent(applicationSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'unprocessable-entity'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/fertilizer-applications/{p_app_id}',
  operationId: 'getFertilizerApplication',
  tags,
  summary: 'Get a fertilizer application',
  security: apiKeySecurity,
  request: { params: applicationIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The application.', headers: etagHeader, content: jsonContent(applicationSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/api/fertilizer-applications/{p_app_id}',
  operationId: 'updateFertilizerApplication',
  tags,
  summary: 'Change a fertilizer application (owner or advisor)',
  security: apiKeySecurity,
  request: { params: applicationIdParams, body: { required: true, content: jsonContent(applicationUpdateSchema) } },
  parameters: [ifMatchParameter],
  responses: {
    200: { description: 'The application after the change.', headers: etagHeader, content: jsonContent(applicationSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'unprocessable-entity', 'precondition-failed'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/fertilizer-applications/{p_app_id}',
  operationId: 'deleteFertilizerApplication',
  tags,
  summary: 'Delete a fertilizer application, permanently',
  security: apiKeySecurity,
  request: { params: applicationIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function applicationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const query = c.req.valid('query');
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    const { data, total } = await listApplications(db, b_id, query);
    return json(c, envelope(data, query, total), 200);
  });

  app.openapi(createApplicationRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: 'field', id: b_id },
      (tx) => createApplication(tx, b_id, input),
      { action: 'create', kind: 'fertilizer application', id: (a) => a.p_app_id },
      respondWithin(c, (application) =>
        recordResponse(c, application, 201, { location: `/api/fertilizer-applications/${application.p_app_id}` }),
      ),
    );
  });

  app.openapi(getRoute, async (c) => {
    const { p_app_id } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'fertilizer application', p_app_id, 'read');
    const application = await getApplication(db, p_app_id);
    if (!application) throw notFound('The fertilizer application does not exist.');
    return readResponse(c, application);
  });

  app.openapi(updateRoute, async (c) => {
    const { p_app_id } = c.req.valid('param');
    const changes = c.req.valid('json');
    const precondition = ifMatch(c);
    const application = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'fertilizer application', id: p_app_id },
      (tx) => updateApplication(tx, p_app_id, changes, precondition),
      { action: 'update', kind: 'fertilizer application', id: p_app_id },
    );
    return recordResponse(c, application, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { p_app_id } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'fertilizer application', id: p_app_id },
      (tx) => deleteApplication(tx, p_app_id, precondition),
      {
        action: 'delete',
        kind: 'fertilizer application',
        id: p_app_id,
      },
    );
    return noContent(c);
  });

  return app;
}
