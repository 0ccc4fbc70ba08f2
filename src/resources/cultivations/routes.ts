// HTTP for cultivations: list and add per field, list per farm; get, change and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { farmResource } from '../farms/routes.js';
import { fieldResource } from '../fields/routes.js';
import { recordList, recordResource } from '../record-resource.js';
import { addRecordRoutes, listRecords } from '../record-routes.js';
import { cultivationCreateSchema, cultivationSchema, cultivationUpdateSchema } from './schemas.js';
import {
  createCultivation,
  deleteCultivation,
  getCultivation,
  listCultivations,
  listFarmCultivations,
  updateCultivation,
} from './store.js';

export const cultivationResource = recordResource({
  kind: 'cultivation',
  plural: 'cultivations',
  id: 'b_lu',
  schema: cultivationSchema,
  parent: fieldResource,
});

const farmCultivations = recordList({ kind: 'cultivation', plural: 'cultivations', schema: cultivationSchema, parent: farmResource });

const overlapRule =
  'With `start` and/or `end` (inclusive), only cultivations whose period [b_lu_start, b_lu_end, or open] overlaps the window.';

export const cultivationRoutes = (database: DatabaseHandle) => {
  const app = addRecordRoutes(new ApiRoutes(), database.db, cultivationResource, {
    list: {
      summary: 'List the cultivations of a field',
      description: `Ordered by creation time, then identifier. ${overlapRule}`,
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
  listRecords(app, database.db, farmCultivations, {
    summary: 'List the cultivations of every field of a farm',
    description: `Every field's cultivations in one list, each with its field's b_id; ordered by creation time, then identifier. ${overlapRule}`,
    query: pagedDateRangeQuerySchema,
    errors: ['unprocessable-entity'],
    list: listFarmCultivations,
  });
  return app;
};
