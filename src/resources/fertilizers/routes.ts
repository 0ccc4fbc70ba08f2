// HTTP for a farm's fertilizers: list and acquire per farm; get and delete one.
import { pageQuerySchema } from '../../http/pagination.js';
import { farmResource } from '../farms/routes.js';
import { pathId, recordResource } from '../record-resource.js';
import { recordRoutes } from '../record-routes.js';
import { farmFertilizerCreateSchema, farmFertilizerSchema } from './schemas.js';
import { acquireFertilizer, deleteFarmFertilizer, getFarmFertilizer, listFarmFertilizers } from './store.js';

const fertilizerResource = recordResource({
  kind: 'fertilizer',
  plural: 'fertilizers',
  page: 'FarmFertilizerPage',
  id: pathId('p_id', "The farm's fertilizer identifier."),
  schema: farmFertilizerSchema,
  parent: farmResource,
});

export const fertilizerRoutes = recordRoutes(fertilizerResource, {
  list: {
    summary: 'List the fertilizers a farm has acquired',
    description: 'Ordered by creation time, then identifier. Each carries its catalogue values.',
    query: pageQuerySchema,
    list: listFarmFertilizers,
  },
  create: {
    operationId: 'acquireFertilizerForFarm',
    summary: 'Acquire a catalogue fertilizer for a farm (owner or advisor)',
    response: "The farm's fertilizer; its p_id is what applications use.",
    body: farmFertilizerCreateSchema,
    errors: ['unprocessable-entity'],
    create: acquireFertilizer,
  },
  get: { summary: "Get a farm's fertilizer", read: getFarmFertilizer },
  delete: {
    summary: "Delete a farm's fertilizer, permanently (owner or advisor)",
    description: 'A fertilizer still used by an application is 409.',
    errors: ['conflict'],
    remove: deleteFarmFertilizer,
  },
});
