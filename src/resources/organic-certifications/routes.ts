// HTTP for a farm's organic certifications: list and add per farm; get and delete one.
import type { DatabaseHandle } from '../../db/client.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { pageQuerySchema } from '../../http/pagination.js';
import { farmResource } from '../farms/routes.js';
import { createRecord, deleteRecord, getRecord, listRecords, pathId, recordResource } from '../record-routes.js';
import { organicCertificationCreateSchema, organicCertificationSchema } from './schemas.js';
import { createOrganicCertification, deleteOrganicCertification, getOrganicCertification, listOrganicCertifications } from './store.js';

const certificationResource = recordResource({
  tags: ['Organic certifications'],
  kind: 'organic certification',
  path: '/api/organic-certifications/{b_id_organic}',
  id: pathId('b_id_organic', 'Organic certification identifier.'),
  schema: organicCertificationSchema,
});

export function organicCertificationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  listRecords(app, db, {
    tags: certificationResource.tags,
    path: '/api/farms/{b_id_farm}/organic-certifications',
    parent: farmResource,
    operation: {
      operationId: 'listOrganicCertificationsOfFarm',
      summary: 'List the organic certifications of a farm',
      description: 'Ordered by creation time, then identifier.',
    },
    query: pageQuerySchema,
    item: organicCertificationSchema,
    page: { name: 'OrganicCertificationPage', description: 'One page of organic certifications.' },
    list: listOrganicCertifications,
  });
  createRecord(app, db, certificationResource, {
    path: '/api/farms/{b_id_farm}/organic-certifications',
    parent: farmResource,
    operation: {
      operationId: 'createOrganicCertificationOfFarm',
      summary: 'Add an organic certification to a farm (owner or advisor)',
      description: 'A malformed TRACES or SKAL number is 400; b_organic_expires not after b_organic_issued is 422.',
    },
    body: organicCertificationCreateSchema,
    response: 'The organic certification.',
    errors: ['unprocessable-entity'],
    create: createOrganicCertification,
  });
  getRecord(app, db, certificationResource, {
    operation: { operationId: 'getOrganicCertification', summary: 'Get an organic certification' },
    response: 'The organic certification.',
    read: getOrganicCertification,
  });
  deleteRecord(app, db, certificationResource, {
    operation: { operationId: 'deleteOrganicCertification', summary: 'Delete an organic certification, permanently (owner or advisor)' },
    remove: deleteOrganicCertification,
  });
  return app;
}
