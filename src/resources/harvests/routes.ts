// HTTP for harvests: list and add per cultivation; get, change and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { cultivationResource } from '../cultivations/routes.js';
import { createRecord, deleteRecord, getRecord, listRecords, pathId, recordResource, updateRecord } from '../record-routes.js';
import { harvestCreateSchema, harvestSchema, harvestUpdateSchema } from './schemas.js';
import { addHarvest, deleteHarvest, getHarvest, listHarvests, readCultivation, updateHarvest } from './store.js';

const harvestResource = recordResource({
  tags: ['Harvests'],
  kind: 'harvest',
  path: '/api/harvests/{b_id_harvesting}',
  id: pathId('b_id_harvesting', 'Harvest identifier.'),
  schema: harvestSchema,
});

export function harvestRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  listRecords(app, db, {
    tags: harvestResource.tags,
    path: '/api/cultivations/{b_lu}/harvests',
    parent: cultivationResource,
    operation: {
      operationId: 'listHarvestsOfCultivation',
      summary: 'List the harvests of a cultivation',
      description:
        'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only harvests dated within the window.',
    },
    query: pagedDateRangeQuerySchema,
    item: harvestSchema,
    page: { name: 'HarvestPage', description: 'One page of harvests.' },
    errors: ['unprocessable-entity'],
    list: listHarvests,
  });
  createRecord(app, db, harvestResource, {
    path: '/api/cultivations/{b_lu}/harvests',
    parent: cultivationResource,
    operation: {
      operationId: 'createHarvestOnCultivation',
      summary: 'Add a harvest (owner or advisor)',
      description:
        'A crop that is not harvested (b_lu_harvestable none) or a missing measurement of its category is 422. A date before the cultivation start, a second harvest of a crop harvested once, a date other than its end date, or a date after the end of a crop harvested more often is 409. Harvesting a crop harvested once sets its b_lu_end to the harvest date.',
    },
    body: harvestCreateSchema,
    response: 'The harvest.',
    errors: ['conflict', 'unprocessable-entity'],
    create: async (tx, b_lu, input) => addHarvest(tx, await readCultivation(tx, b_lu), input),
  });
  getRecord(app, db, harvestResource, {
    operation: { operationId: 'getHarvest', summary: 'Get a harvest' },
    response: 'The harvest.',
    read: getHarvest,
  });
  updateRecord(app, db, harvestResource, {
    operation: {
      operationId: 'updateHarvest',
      summary: 'Change a harvest (owner or advisor)',
      description: 'The rules of creation apply to the result.',
    },
    body: harvestUpdateSchema,
    response: 'The harvest after the change.',
    errors: ['conflict', 'unprocessable-entity'],
    update: updateHarvest,
  });
  deleteRecord(app, db, harvestResource, {
    operation: { operationId: 'deleteHarvest', summary: 'Delete a harvest, permanently' },
    remove: deleteHarvest,
  });
  return app;
}
