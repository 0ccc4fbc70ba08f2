// HTTP for fertilizer applications: list and add per field; get, change and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { fieldResource } from '../fields/routes.js';
import { createRecord, deleteRecord, getRecord, listRecords, pathId, recordResource, updateRecord } from '../record-routes.js';
import { applicationCreateSchema, applicationSchema, applicationUpdateSchema } from './schemas.js';
import { createApplication, deleteApplication, getApplication, listApplications, updateApplication } from './store.js';

const applicationResource = recordResource({
  tags: ['Fertilizer applications'],
  kind: 'fertilizer application',
  path: '/api/fertilizer-applications/{p_app_id}',
  id: pathId('p_app_id', 'Application identifier.'),
  schema: applicationSchema,
});

export function applicationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  listRecords(app, db, {
    tags: applicationResource.tags,
    path: '/api/fields/{b_id}/fertilizer-applications',
    parent: fieldResource,
    operation: {
      operationId: 'listFertilizerApplicationsOfField',
      summary: 'List the fertilizer applications of a field',
      description:
        'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only applications dated within the window.',
    },
    query: pagedDateRangeQuerySchema,
    item: applicationSchema,
    page: { name: 'FertilizerApplicationPage', description: 'One page of applications.' },
    errors: ['unprocessable-entity'],
    list: listApplications,
  });
  createRecord(app, db, applicationResource, {
    path: '/api/fields/{b_id}/fertilizer-applications',
    parent: fieldResource,
    operation: {
      operationId: 'createFertilizerApplicationOnField',
      summary: 'Record a fertilizer application on a field (owner or advisor)',
      description:
        "The amount is sent in the fertilizer's unit and stored in kg/ha (ton/ha × 1000; l/ha × density; m3/ha × 1000 × density). A p_id that is not one of the farm's fertilizers, another unit, or a volume without density is 422.",
    },
    body: applicationCreateSchema,
    response: 'The application.',
    errors: ['unprocessable-entity'],
    create: createApplication,
  });
  getRecord(app, db, applicationResource, {
    operation: { operationId: 'getFertilizerApplication', summary: 'Get a fertilizer application' },
    response: 'The application.',
    read: getApplication,
  });
  updateRecord(app, db, applicationResource, {
    operation: { operationId: 'updateFertilizerApplication', summary: 'Change a fertilizer application (owner or advisor)' },
    body: applicationUpdateSchema,
    response: 'The application after the change.',
    errors: ['unprocessable-entity'],
    update: updateApplication,
  });
  deleteRecord(app, db, applicationResource, {
    operation: { operationId: 'deleteFertilizerApplication', summary: 'Delete a fertilizer application, permanently' },
    remove: deleteApplication,
  });
  return app;
}
