// HTTP for farms: list yours and create one (you become its owner); get, change and delete one.
import { createRoute } from '@hono/zod-openapi';
import { authorizeAccountChange } from '../../access/roles.js';
import { respondWithin } from '../../http/write-response.js';
import { recordWrite } from '../../access/audit.js';
import type { DatabaseHandle } from '../../db/client.js';
import type { AccessMemory } from '../../access/access-memory.js';
import { apiKeySecurity, authenticatedErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, pageResponses } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { notFound } from '../../core/domain-errors.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { etagHeader, readResponse, recordResponse } from '../../http/etag.js';
import { json } from '../../http/responses.js';
import { recordResource } from '../record-resource.js';
import { deleteRecord, getRecordRoute, updateRecord } from '../record-routes.js';
import {
  farmCreateSchema,
  farmIdParams,
  farmListItemSchema,
  farmListQuerySchema,
  farmSchema,
  farmUpdateSchema,
  type Farm,
} from './schemas.js';
import { createFarm, deleteFarm, findReadableFarm, listFarms, updateFarm } from './store.js';

export const farmResource = recordResource({
  kind: 'farm',
  plural: 'farms',
  id: { name: 'b_id_farm', params: farmIdParams },
  schema: farmSchema,
});

// The farms of the principal, not of a parent record.
const listRoute = createRoute({
  method: 'get',
  path: farmResource.listPath,
  operationId: 'listFarms',
  tags: farmResource.names.tags,
  summary: 'List the farms you reach, yourself or through your organisations',
  description:
    'Each farm once, with your effective role on it; ordered by creation time ascending, then identifier. ' +
    'With `organisation`, only the farms shared with that organisation: 404 unless you are a member of it. ' +
    'A key limited to some farms lists (and counts) only those of them.',
  security: apiKeySecurity,
  request: { query: farmListQuerySchema },
  responses: pageResponses('One page of farms.', farmListItemSchema, 'FarmPage', 'not-found'),
});

// A farm is under no record: anyone signed in may create one.
const createFarmRoute = createRoute({
  method: 'post',
  path: farmResource.listPath,
  operationId: 'createFarm',
  tags: farmResource.names.tags,
  summary: 'Create a farm (you become its owner)',
  description: 'A key that is read-only or limited to some farms may not create farms (403).',
  security: apiKeySecurity,
  request: { body: { required: true, content: jsonContent(farmCreateSchema) } },
  responses: {
    201: {
      description: 'The farm, with its new `b_id_farm`.',
      headers: { Location: { schema: { type: 'string' }, description: 'Path of the new farm.' }, ...etagHeader },
      content: jsonContent(farmSchema),
    },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'forbidden'),
  },
});

const getRoute = getRecordRoute(farmResource, { summary: 'Get a farm' });

export function farmRoutes({ database, access }: { database: DatabaseHandle; access: AccessMemory }) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const page = c.req.valid('query');
    const principal = c.get('principal');
    const { data, total } = await listFarms(database, principal, page);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(createFarmRoute, async (c) => {
    const input = c.req.valid('json');
    const principal = c.get('principal');
    authorizeAccountChange(principal, 'create farms');
    const respond = respondWithin(c, (farm: Farm) => recordResponse(c, farm, 201, { location: `/api/farms/${farm.b_id_farm}` }));
    return db.transaction(async (tx) => {
      const created = await createFarm(tx, principal.userId, input);
      await recordWrite(tx, principal, created.b_id_farm, 'create', 'farm', created.b_id_farm);
      return respond(tx, created);
    });
  });

  // The hot read: the farm with the role on it in one statement, or at a remembered access version.
  app.openapi(getRoute, async (c) => {
    const farm = await findReadableFarm({ database, access }, c.get('principal'), c.req.valid('param').b_id_farm);
    if (!farm) throw notFound('The farm does not exist.');
    return readResponse(c, farm);
  });

  updateRecord(app, db, farmResource, {
    summary: 'Update a farm (owner or advisor)',
    response: 'The farm after the update.',
    body: farmUpdateSchema,
    update: updateFarm,
  });
  deleteRecord(app, db, farmResource, {
    summary: 'Delete a farm and everything on it, permanently (owner or advisor)',
    remove: deleteFarm,
  });

  return app;
}
