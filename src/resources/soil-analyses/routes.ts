// HTTP for soil analyses: list and add per field; get, change and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { fieldResource } from '../fields/routes.js';
import { createRecord, deleteRecord, getRecord, listRecords, pathId, recordResource, updateRecord } from '../record-routes.js';
import { soilAnalysisCreateSchema, soilAnalysisSchema, soilAnalysisUpdateSchema } from './schemas.js';
import { createSoilAnalysis, deleteSoilAnalysis, getSoilAnalysis, listSoilAnalyses, updateSoilAnalysis } from './store.js';

const soilAnalysisResource = recordResource({
  tags: ['Soil analyses'],
  kind: 'soil analysis',
  path: '/api/soil-analyses/{a_id}',
  id: pathId('a_id', 'Soil analysis identifier.'),
  schema: soilAnalysisSchema,
});

export function soilAnalysisRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  listRecords(app, db, {
    tags: soilAnalysisResource.tags,
    path: '/api/fields/{b_id}/soil-analyses',
    parent: fieldResource,
    operation: {
      operationId: 'listSoilAnalysesOfField',
      summary: 'List the soil analyses of a field',
      description:
        'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only analyses whose b_sampling_date lies in the window.',
    },
    query: pagedDateRangeQuerySchema,
    item: soilAnalysisSchema,
    page: { name: 'SoilAnalysisPage', description: 'One page of soil analyses.' },
    errors: ['unprocessable-entity'],
    list: listSoilAnalyses,
  });
  createRecord(app, db, soilAnalysisResource, {
    path: '/api/fields/{b_id}/soil-analyses',
    parent: fieldResource,
    operation: {
      operationId: 'createSoilAnalysisOnField',
      summary: 'Add a soil analysis to a field (owner or advisor)',
      description: 'A parameter outside its physical range is 400 naming it; a lower depth not below the upper depth is 422.',
    },
    body: soilAnalysisCreateSchema,
    response: 'The soil analysis.',
    errors: ['unprocessable-entity'],
    create: createSoilAnalysis,
  });
  getRecord(app, db, soilAnalysisResource, {
    operation: { operationId: 'getSoilAnalysis', summary: 'Get a soil analysis' },
    response: 'The soil analysis.',
    read: getSoilAnalysis,
  });
  updateRecord(app, db, soilAnalysisResource, {
    operation: { operationId: 'updateSoilAnalysis', summary: 'Change a soil analysis (owner or advisor)' },
    body: soilAnalysisUpdateSchema,
    response: 'The soil analysis after the change.',
    errors: ['conflict', 'unprocessable-entity'],
    update: updateSoilAnalysis,
  });
  deleteRecord(app, db, soilAnalysisResource, {
    operation: { operationId: 'deleteSoilAnalysis', summary: 'Delete a soil analysis with its sampling, permanently' },
    remove: deleteSoilAnalysis,
  });
  return app;
}
