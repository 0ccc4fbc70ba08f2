// HTTP for harvests: list and add per cultivation; get, change and delete one.
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import type { ErrorCode } from '../../http/problem.js';
import { cultivationResource } from '../cultivations/routes.js';
import { recordResource } from '../record-resource.js';
import { recordRoutes } from '../record-routes.js';
import { harvestCreateSchema, harvestSchema, harvestUpdateSchema } from './schemas.js';
import { addHarvest, deleteHarvest, getHarvest, listHarvests, readCultivation, updateHarvest } from './store.js';

const harvestResource = recordResource({
  kind: 'harvest',
  plural: 'harvests',
  id: 'b_id_harvesting',
  schema: harvestSchema,
  parent: cultivationResource,
});

/** A harvest's rules hold for its creation and for the result of a change alike: the same refusals. */
const harvestRuleErrors: ErrorCode[] = ['conflict', 'unprocessable-entity'];

export const harvestRoutes = recordRoutes(harvestResource, {
  list: {
    summary: 'List the harvests of a cultivation',
    description: 'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only harvests dated within the window.',
    query: pagedDateRangeQuerySchema,
    errors: ['unprocessable-entity'],
    list: listHarvests,
  },
  create: {
    summary: 'Add a harvest (owner or advisor)',
    description:
      'A crop that is not harvested (b_lu_harvestable none) or a missing measurement of its category is 422. A date before the cultivation start, a second harvest of a crop harvested once, a date other than its end date, or a date after the end of a crop harvested more often is 409. Harvesting a crop harvested once sets its b_lu_end to the harvest date.',
    body: harvestCreateSchema,
    errors: harvestRuleErrors,
    create: async (tx, b_lu, input) => addHarvest(tx, await readCultivation(tx, b_lu), input),
  },
  get: { summary: 'Get a harvest', read: getHarvest },
  update: {
    summary: 'Change a harvest (owner or advisor)',
    description: 'The rules of creation apply to the result.',
    body: harvestUpdateSchema,
    errors: harvestRuleErrors,
    update: updateHarvest,
  },
  delete: { summary: 'Delete a harvest, permanently', remove: deleteHarvest },
});
