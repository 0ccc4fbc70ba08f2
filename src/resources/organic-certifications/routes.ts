// HTTP for a farm's organic certifications: list and add per farm; get and delete one.
import { pageQuerySchema } from '../../http/pagination.js';
import { farmResource } from '../farms/routes.js';
import { recordResource } from '../record-resource.js';
import { recordRoutes } from '../record-routes.js';
import { organicCertificationCreateSchema, organicCertificationSchema } from './schemas.js';
import { createOrganicCertification, deleteOrganicCertification, getOrganicCertification, listOrganicCertifications } from './store.js';

const certificationResource = recordResource({
  kind: 'organic certification',
  plural: 'organic certifications',
  id: 'b_id_organic',
  schema: organicCertificationSchema,
  parent: farmResource,
});

export const organicCertificationRoutes = recordRoutes(certificationResource, {
  list: {
    summary: 'List the organic certifications of a farm',
    description: 'Ordered by creation time, then identifier.',
    query: pageQuerySchema,
    list: listOrganicCertifications,
  },
  create: {
    // Of, not On as the others: the name the generated clients know it by.
    operationId: 'createOrganicCertificationOfFarm',
    summary: 'Add an organic certification to a farm (owner or advisor)',
    description: 'A malformed TRACES or SKAL number is 400; b_organic_expires not after b_organic_issued is 422.',
    body: organicCertificationCreateSchema,
    errors: ['unprocessable-entity'],
    create: createOrganicCertification,
  },
  get: { summary: 'Get an organic certification', read: getOrganicCertification },
  delete: { summary: 'Delete an organic certification, permanently (owner or advisor)', remove: deleteOrganicCertification },
});
