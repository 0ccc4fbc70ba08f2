// HTTP for farms: parse, authorize, call the store, answer.
import { createRoute } from '@hono/zod-openapi';
import { settleKeyCheck } from '../../access/key-check.js';
import { auditedWrite } from '../../access/audited-write.js';
import { respondWithin } from '../../http/write-response.js';
import { recordWrite } from '../../access/audit.js';
import type { DatabaseHandle } from '../../db/client.js';
import type { AccessMemory } from '../../access/access-memory.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema, pageQuerySchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { notFound } from '../../core/domain-errors.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmCreateSchema, farmIdParams, farmSchema, farmUpdateSchema, type Farm } from './schemas.js';
import { createFarm, deleteFarm, findReadableFarm, listFarms, updateFarm } from './store.js';
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

const tags = ['Farms'];

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms',
  operationId: 'listFarms',
  tags,
  summary: 'List the farms you have a role on',
  description: 'Ordered by creation time ascending, then identifier.',
  security: apiKeySecurity,
  request: { query: pageQuerySchema },
  responses: {
    200: { description: 'One page of farms.', content: jsonContent(envelopeSchema(farmSchema, 'FarmPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed'),
  },
});

const createFarmRoute = createRoute({
  method: 'post',
  path: '/api/farms',
  operationId: 'createFarm',
  tags,
  summary: 'Create a farm (you become its owner)',
  security: apiKeySecurity,
  request: { body: { required: true, content: jsonContent(farmCreateSchema) } },
  responses: {
    201: {
      description: 'The farm, with its new `b_id_farm`.',
      headers: { Location: { schema: { type: 'string' }, description: 'Path of the new farm.' }, ...etagHeader },
      content: jsonContent(farmSchema),
    },
    ...errorResponses(...authenticatedErrors, ...bodyErrors),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}',
  operationId: 'getFarm',
  tags,
  summary: 'Get a farm',
  security: apiKeySecurity,
  request: { params: farmIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The farm.', headers: etagHeader, content: jsonContent(farmSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/api/farms/{b_id_farm}',
  operationId: 'updateFarm',
  tags,
  summary: 'Update a farm (owner or advisor)',
  security: apiKeySecurity,
  request: { params: farmIdParams, body: { required: true, content: jsonContent(farmUpdateSchema) } },
  parameters: [ifMatchParameter],
  responses: {
    200: { description: 'The farm after the update.', headers: etagHeader, content: jsonContent(farmSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'precondition-failed'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/farms/{b_id_farm}',
  operationId: 'deleteFarm',
  tags,
  summary: 'Delete a farm and everything on it, permanently (owner or advisor)',
  security: apiKeySecurity,
  request: { params: farmIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function farmRoutes({ database, access }: { database: DatabaseHandle; access: AccessMemory }) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const page = c.req.valid('query');
    const principal = c.get('principal');
    const { keyActive, data, total } = await listFarms(database, principal, page);
    settleKeyCheck(principal, keyActive);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(createFarmRoute, async (c) => {
    const input = c.req.valid('json');
    const principal = c.get('principal');
    const respond = respondWithin(c, (farm: Farm) => recordResponse(c, farm, 201, { location: `/api/farms/${farm.b_id_farm}` }));
    return db.transaction(async (tx) => {
      const created = await createFarm(tx, principal.userId, input);
      await recordWrite(tx, principal, created.b_id_farm, 'create', 'farm', created.b_id_farm);
      return respond(tx, created);
    });
  });

  app.openapi(getRoute, async (c) => {
    const farm = await findReadableFarm({ database, access }, c.get('principal'), c.req.valid('param').b_id_farm);
    if (!farm) throw notFound('The farm does not exist.');
    return readResponse(c, farm);
  });

  app.openapi(updateRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const changes = c.req.valid('json');
    const precondition = ifMatch(c);
    const farm = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'farm', id: b_id_farm },
      (tx) => updateFarm(tx, b_id_farm, changes, precondition),
      { action: 'update', kind: 'farm', id: b_id_farm },
    );
    return recordResponse(c, farm, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(db, c.get('principal'), { kind: 'farm', id: b_id_farm }, (tx) => deleteFarm(tx, b_id_farm, precondition), {
      action: 'delete',
      kind: 'farm',
      id: b_id_farm,
    });
    return noContent(c);
  });

  return app;
}
