// HTTP for soil analyses: list and add per field; get, change and delete one.
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { fieldResource } from '../fields/routes.js';
import { recordResource } from '../record-resource.js';
import { recordRoutes } from '../record-routes.js';
import { soilAnalysisCreateSchema, soilAnalysisSchema, soilAnalysisUpdateSchema } from './schemas.js';
import { createSoilAnalysis, deleteSoilAnalysis, getSoilAnalysis, listSoilAnalyses, updateSoilAnalysis } from './store.js';

const soilAnalysisResource = recordResource({
  kind: 'soil analysis',
  plural: 'soil analyses',
  id: 'a_id',
  schema: soilAnalysisSchema,
  parent: fieldResource,
});

export const soilAnalysisRoutes = recordRoutes(soilAnalysisResource, {
  list: {
    summary: 'List the soil analyses of a field',
    description:
      'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only analyses whose b_sampling_date lies in the window.',
    query: pagedDateRangeQuerySchema,
    errors: ['unprocessable-entity'],
    list: listSoilAnalyses,
  },
  create: {
    summary: 'Add a soil analysis to a field (owner or advisor)',
    description: 'A parameter outside its physical range is 400 naming it; a lower depth not below the upper depth is 422.',
    body: soilAnalysisCreateSchema,
    errors: ['unprocessable-entity'],
    create: createSoilAnalysis,
  },
  get: { summary: 'Get a soil analysis', read: getSoilAnalysis },
  update: {
    summary: 'Change a soil analysis (owner or advisor)',
    body: soilAnalysisUpdateSchema,
    errors: ['conflict', 'unprocessable-entity'],
    update: updateSoilAnalysis,
  },
  delete: { summary: 'Delete a soil analysis with its sampling, permanently', remove: deleteSoilAnalysis },
});
