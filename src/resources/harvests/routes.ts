// HTTP for harvests: list and add per cultivation; get, change and delete one.
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
import { harvestCreateSchema, harvestSchema, harvestUpdateSchema } from './schemas.js';
import { addHarvest, deleteHarvest, getHarvest, listHarvests, readCultivation, updateHarvest } from './store.js';
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

const tags = ['Harvests'];
const cultivationIdParams = idParams('b_lu', 'Cultivation identifier.');
const harvestIdParams = idParams('b_id_harvesting', 'Harvest identifier.');
const ruleErrors = ['not-found', 'forbidden', 'conflict', 'unprocessable-entity'] as const;

const listRoute = createRoute({
  method: 'get',
  path: '/api/cultivations/{b_lu}/harvests',
  operationId: 'listHarvestsOfCultivation',
  tags,
  summary: 'List the harvests of a cultivation',
  description: 'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only harvests dated within the window.',
  security: apiKeySecurity,
  request: { params: cultivationIdParams, query: pagedDateRangeQuerySchema },
  responses: {
    200: { description: 'One page of harvests.', content: jsonContent(envelopeSchema(harvestSchema, 'HarvestPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'unprocessable-entity'),
  },
});

const createHarvestRoute = createRoute({
  method: 'post',
  path: '/api/cultivations/{b_lu}/harvests',
  operationId: 'createHarvestOnCultivation',
  tags,
  summary: 'Add a harvest (owner or advisor)',
  description:
    'A crop that is not harvested (b_lu_harvestable none) or a missing measurement of its category is 422. A date before the cultivation start, a second harvest of a crop harvested once, a date other than its end date, or a date after the end of a crop harvested more often is 409. Harvesting a crop harvested once sets its b_lu_end to the harvest date.',
  security: apiKeySecurity,
  request: { params: cultivationIdParams, body: { required: true, content: jsonContent(harvestCreateSchema) } },
  responses: {
    201: { description: 'The harvest.', headers: { ...locationHeader, ...etagHeader }, content: jsonContent(harvestSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, ...ruleErrors),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/harvests/{b_id_harvesting}',
  operationId: 'getHarvest',
  tags,
  summary: 'Get a harvest',
  security: apiKeySecurity,
  request: { params: harvestIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The harvest.', headers: etagHeader, content: jsonContent(harvestSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/api/harvests/{b_id_harvesting}',
  operationId: 'updateHarvest',
  tags,
  summary: 'Change a harvest (owner or advisor)',
  description: 'The rules of creation apply to the result.',
  security: apiKeySecurity,
  request: { params: harvestIdParams, body: { required: true, content: jsonContent(harvestUpdateSchema) } },
  parameters: [ifMatchParameter],
  responses: {
    200: { description: 'The harvest after the change.', headers: etagHeader, content: jsonContent(harvestSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, ...ruleErrors, 'precondition-failed'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/harvests/{b_id_harvesting}',
  operationId: 'deleteHarvest',
  tags,
  summary: 'Delete a harvest, permanently',
  security: apiKeySecurity,
  request: { params: harvestIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function harvestRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_lu } = c.req.valid('param');
    const query = c.req.valid('query');
    await authorize(db, c.get('principal'), 'cultivation', b_lu, 'read');
    const { data, total } = await listHarvests(db, b_lu, query);
    return json(c, envelope(data, query, total), 200);
  });

  app.openapi(createHarvestRoute, async (c) => {
    const { b_lu } = c.req.valid('param');
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: 'cultivation', id: b_lu },
      async (tx) => addHarvest(tx, await readCultivation(tx, b_lu), input),
      { action: 'create', kind: 'harvest', id: (h) => h.b_id_harvesting },
      respondWithin(c, (harvest) => recordResponse(c, harvest, 201, { location: `/api/harvests/${harvest.b_id_harvesting}` })),
    );
  });

  app.openapi(getRoute, async (c) => {
    const { b_id_harvesting } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'harvest', b_id_harvesting, 'read');
    const harvest = await getHarvest(db, b_id_harvesting);
    if (!harvest) throw notFound('The harvest does not exist.');
    return readResponse(c, harvest);
  });

  app.openapi(updateRoute, async (c) => {
    const { b_id_harvesting } = c.req.valid('param');
    const changes = c.req.valid('json');
    const precondition = ifMatch(c);
    const harvest = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'harvest', id: b_id_harvesting },
      (tx) => updateHarvest(tx, b_id_harvesting, changes, precondition),
      { action: 'update', kind: 'harvest', id: b_id_harvesting },
    );
    return recordResponse(c, harvest, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { b_id_harvesting } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'harvest', id: b_id_harvesting },
      (tx) => deleteHarvest(tx, b_id_harvesting, precondition),
      {
        action: 'delete',
        kind: 'harvest',
        id: b_id_harvesting,
      },
    );
    return noContent(c);
  });

  return app;
}
