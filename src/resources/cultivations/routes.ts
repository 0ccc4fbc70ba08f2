// HTTP for cultivations: list and add per field; get, change and delete one.
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { fieldResource } from '../fields/routes.js';
import { recordResource } from '../record-resource.js';
import { recordRoutes } from '../record-routes.js';
import { cultivationCreateSchema, cultivationSchema, cultivationUpdateSchema } from './schemas.js';
import { createCultivation, deleteCultivation, getCultivation, listCultivations, updateCultivation } from './store.js';

export const cultivationResource = recordResource({
  kind: 'cultivation',
  plural: 'cultivations',
  id: 'b_lu',
  schema: cultivationSchema,
  parent: fieldResource,
});

export const cultivationRoutes = recordRoutes(cultivationResource, {
  list: {
    summary: 'List the cultivations of a field',
    description:
      'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only cultivations whose period [b_lu_start, b_lu_end, or open] overlaps the window.',
    query: pagedDateRangeQuerySchema,
    errors: ['unprocessable-entity'],
    list: listCultivations,
  },
  create: {
    summary: 'Add a cultivation to a field (owner or advisor)',
    response: 'The cultivation with its crop catalogue columns.',
    body: cultivationCreateSchema,
    errors: ['unprocessable-entity'],
    create: createCultivation,
  },
  get: { summary: 'Get a cultivation', read: getCultivation },
  update: {
    summary: 'Change a cultivation (owner or advisor)',
    description: 'Any subset. Dates must agree with the stored ones and with the harvests (409 otherwise).',
    body: cultivationUpdateSchema,
    errors: ['conflict', 'unprocessable-entity'],
    update: updateCultivation,
  },
  delete: { summary: 'Delete a cultivation and its harvests, permanently (fertilizer applications stay)', remove: deleteCultivation },
});
