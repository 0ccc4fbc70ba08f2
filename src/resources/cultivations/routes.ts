// HTTP for cultivations: list and add per field; get, change and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { fieldResource } from '../fields/routes.js';
import { createRecord, deleteRecord, getRecord, listRecords, pathId, recordResource, updateRecord } from '../record-routes.js';
import { cultivationCreateSchema, cultivationSchema, cultivationUpdateSchema } from './schemas.js';
import { createCultivation, deleteCultivation, getCultivation, listCultivations, updateCultivation } from './store.js';

export const cultivationResource = recordResource({
  tags: ['Cultivations'],
  kind: 'cultivation',
  path: '/api/cultivations/{b_lu}',
  id: pathId('b_lu', 'Cultivation identifier.'),
  schema: cultivationSchema,
});

export function cultivationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  listRecords(app, db, {
    tags: cultivationResource.tags,
    path: '/api/fields/{b_id}/cultivations',
    parent: fieldResource,
    operation: {
      operationId: 'listCultivationsOfField',
      summary: 'List the cultivations of a field',
      description:
        'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only cultivations whose period [b_lu_start, b_lu_end, or open] overlaps the window.',
    },
    query: pagedDateRangeQuerySchema,
    item: cultivationSchema,
    page: { name: 'CultivationPage', description: 'One page of cultivations.' },
    errors: ['unprocessable-entity'],
    list: listCultivations,
  });
  createRecord(app, db, cultivationResource, {
    path: '/api/fields/{b_id}/cultivations',
    parent: fieldResource,
    operation: { operationId: 'createCultivationOnField', summary: 'Add a cultivation to a field (owner or advisor)' },
    body: cultivationCreateSchema,
    response: 'The cultivation with its crop catalogue columns.',
    errors: ['unprocessable-entity'],
    create: createCultivation,
  });
  getRecord(app, db, cultivationResource, {
    operation: { operationId: 'getCultivation', summary: 'Get a cultivation' },
    response: 'The cultivation.',
    read: getCultivation,
  });
  updateRecord(app, db, cultivationResource, {
    operation: {
      operationId: 'updateCultivation',
      summary: 'Change a cultivation (owner or advisor)',
      description: 'Any subset. Dates must agree with the stored ones and with the harvests (409 otherwise).',
    },
    body: cultivationUpdateSchema,
    response: 'The cultivation after the change.',
    errors: ['conflict', 'unprocessable-entity'],
    update: updateCultivation,
  });
  deleteRecord(app, db, cultivationResource, {
    operation: {
      operationId: 'deleteCultivation',
      summary: 'Delete a cultivation and its harvests, permanently (fertilizer applications stay)',
    },
    remove: deleteCultivation,
  });
  return app;
}
