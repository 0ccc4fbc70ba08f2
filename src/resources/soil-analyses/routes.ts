// HTTP for soil analyses: list and add per field, list per farm; get, change and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { farmResource } from '../farms/routes.js';
import { fieldResource } from '../fields/routes.js';
import { recordList, recordResource } from '../record-resource.js';
import { addRecordRoutes, listRecords } from '../record-routes.js';
import { soilAnalysisCreateSchema, soilAnalysisSchema, soilAnalysisUpdateSchema } from './schemas.js';
import {
  createSoilAnalysis,
  deleteSoilAnalysis,
  getSoilAnalysis,
  listFarmSoilAnalyses,
  listSoilAnalyses,
  updateSoilAnalysis,
} from './store.js';

const soilAnalysisResource = recordResource({
  kind: 'soil analysis',
  plural: 'soil analyses',
  id: 'a_id',
  schema: soilAnalysisSchema,
  parent: fieldResource,
});

const farmSoilAnalyses = recordList({
  kind: 'soil analysis',
  plural: 'soil analyses',
  schema: soilAnalysisSchema,
  parent: farmResource,
});

const samplingRule = 'With `start` and/or `end` (inclusive), only analyses whose b_sampling_date lies in the window.';

export const soilAnalysisRoutes = (database: DatabaseHandle) => {
  const app = addRecordRoutes(new ApiRoutes(), database.db, soilAnalysisResource, {
    list: {
      summary: 'List the soil analyses of a field',
      description: `Ordered by creation time, then identifier. ${samplingRule}`,
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
  listRecords(app, database.db, farmSoilAnalyses, {
    summary: 'List the soil analyses of every field of a farm',
    description: `Every field's analyses in one list, each with its field's b_id; ordered by creation time, then identifier. ${samplingRule}`,
    query: pagedDateRangeQuerySchema,
    errors: ['unprocessable-entity'],
    list: listFarmSoilAnalyses,
  });
  return app;
};
