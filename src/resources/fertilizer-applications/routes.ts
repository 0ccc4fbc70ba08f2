// HTTP for fertilizer applications: list and add per field; get, change and delete one.
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { fieldResource } from '../fields/routes.js';
import { recordResource } from '../record-resource.js';
import { recordRoutes } from '../record-routes.js';
import { applicationCreateSchema, applicationSchema, applicationUpdateSchema } from './schemas.js';
import { createApplication, deleteApplication, getApplication, listApplications, updateApplication } from './store.js';

const applicationResource = recordResource({
  kind: 'fertilizer application',
  plural: 'fertilizer applications',
  said: ['application', 'applications'],
  id: 'p_app_id',
  schema: applicationSchema,
  parent: fieldResource,
});

export const applicationRoutes = recordRoutes(applicationResource, {
  list: {
    summary: 'List the fertilizer applications of a field',
    description:
      'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only applications dated within the window.',
    query: pagedDateRangeQuerySchema,
    errors: ['unprocessable-entity'],
    list: listApplications,
  },
  create: {
    summary: 'Record a fertilizer application on a field (owner or advisor)',
    description:
      "The amount is sent in the fertilizer's unit and stored in kg/ha (ton/ha × 1000; l/ha × density; m3/ha × 1000 × density). A p_id that is not one of the farm's fertilizers, another unit, or a volume without density is 422.",
    body: applicationCreateSchema,
    errors: ['unprocessable-entity'],
    create: createApplication,
  },
  get: { summary: 'Get a fertilizer application', read: getApplication },
  update: {
    summary: 'Change a fertilizer application (owner or advisor)',
    body: applicationUpdateSchema,
    errors: ['unprocessable-entity'],
    update: updateApplication,
  },
  delete: { summary: 'Delete a fertilizer application, permanently', remove: deleteApplication },
});
