// HTTP for a farm's fertilizers: list and acquire per farm; get and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pageQuerySchema } from '../../http/pagination.js';
import { farmResource } from '../farms/routes.js';
import { createRecord, deleteRecord, getRecord, listRecords, pathId, recordResource } from '../record-routes.js';
import { farmFertilizerCreateSchema, farmFertilizerSchema } from './schemas.js';
import { acquireFertilizer, deleteFarmFertilizer, getFarmFertilizer, listFarmFertilizers } from './store.js';

const fertilizerResource = recordResource({
  tags: ['Fertilizers'],
  kind: 'fertilizer',
  path: '/api/fertilizers/{p_id}',
  id: pathId('p_id', "The farm's fertilizer identifier."),
  schema: farmFertilizerSchema,
});

export function fertilizerRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  listRecords(app, db, {
    tags: fertilizerResource.tags,
    path: '/api/farms/{b_id_farm}/fertilizers',
    parent: farmResource,
    operation: {
      operationId: 'listFertilizersOfFarm',
      summary: 'List the fertilizers a farm has acquired',
      description: 'Ordered by creation time, then identifier. Each carries its catalogue values.',
    },
    query: pageQuerySchema,
    item: farmFertilizerSchema,
    page: { name: 'FarmFertilizerPage', description: 'One page of fertilizers.' },
    list: listFarmFertilizers,
  });
  createRecord(app, db, fertilizerResource, {
    path: '/api/farms/{b_id_farm}/fertilizers',
    parent: farmResource,
    operation: { operationId: 'acquireFertilizerForFarm', summary: 'Acquire a catalogue fertilizer for a farm (owner or advisor)' },
    body: farmFertilizerCreateSchema,
    response: "The farm's fertilizer; its p_id is what applications use.",
    errors: ['unprocessable-entity'],
    create: acquireFertilizer,
  });
  getRecord(app, db, fertilizerResource, {
    operation: { operationId: 'getFertilizer', summary: "Get a farm's fertilizer" },
    response: 'The fertilizer.',
    read: getFarmFertilizer,
  });
  deleteRecord(app, db, fertilizerResource, {
    operation: {
      operationId: 'deleteFertilizer',
      summary: "Delete a farm's fertilizer, permanently (owner or advisor)",
      description: 'A fertilizer still used by an application is 409.',
    },
    errors: ['conflict'],
    remove: deleteFarmFertilizer,
  });
  return app;
}
