// HTTP for a farm's organic certifications: list and add per farm; get and delete one.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import { respondWithin } from '../../http/write-response.js';
import { authorize } from '../../access/roles.js';
import { json, noContent } from '../../http/responses.js';
import type { DatabaseHandle } from '../../db/client.js';
import {
  etagHeader,
  ifMatch,
  ifMatchParameter,
  ifNoneMatchParameter,
  notModifiedResponse,
  readResponse,
  recordResponse,
} from '../../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema, pageQuerySchema } from '../../http/pagination.js';
import { idParams, jsonContent, locationHeader } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { notFound } from '../../core/domain-errors.js';
import { farmIdParams } from '../farms/schemas.js';
import { organicCertificationCreateSchema, organicCertificationSchema } from './schemas.js';
import { createOrganicCertification, deleteOrganicCertification, getOrganicCertification, listOrganicCertifications } from './store.js';

const tags = ['Organic certifications'];
const certificationIdParams = idParams('b_id_organic', 'Organic certification identifier.');

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}/organic-certifications',
  operationId: 'listOrganicCertificationsOfFarm',
  tags,
  summary: 'List the organic certifications of a farm',
  description: 'Ordered by creation time, then identifier.',
  security: apiKeySecurity,
  request: { params: farmIdParams, query: pageQuerySchema },
  responses: {
    200: {
      description: 'One page of organic certifications.',
      content: jsonContent(envelopeSchema(organicCertificationSchema, 'OrganicCertificationPage')),
    },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const createCertificationRoute = createRoute({
  method: 'post',
  path: '/api/farms/{b_id_farm}/organic-certifications',
  operationId: 'createOrganicCertificationOfFarm',
  tags,
  summary: 'Add an organic certification to a farm (owner or advisor)',
  description: 'A malformed TRACES or SKAL number is 400; b_organic_expires not after b_organic_issued is 422.',
  security: apiKeySecurity,
  request: { params: farmIdParams, body: { required: true, content: jsonContent(organicCertificationCreateSchema) } },
  responses: {
    201: {
      description: 'The organic certification.',
      headers: { ...locationHeader, ...etagHeader },
      content: jsonContent(organicCertificationSchema),
    },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'unprocessable-entity'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/organic-certifications/{b_id_organic}',
  operationId: 'getOrganicCertification',
  tags,
  summary: 'Get an organic certification',
  security: apiKeySecurity,
  request: { params: certificationIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The organic certification.', headers: etagHeader, content: jsonContent(organicCertificationSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/organic-certifications/{b_id_organic}',
  operationId: 'deleteOrganicCertification',
  tags,
  summary: 'Delete an organic certification, permanently (owner or advisor)',
  security: apiKeySecurity,
  request: { params: certificationIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function organicCertificationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const page = c.req.valid('query');
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    const { data, total } = await listOrganicCertifications(db, b_id_farm, page);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(createCertificationRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: 'farm', id: b_id_farm },
      (tx) => createOrganicCertification(tx, b_id_farm, input),
      { action: 'create', kind: 'organic certification', id: (created) => created.b_id_organic },
      respondWithin(c, (certification) =>
        recordResponse(c, certification, 201, { location: `/api/organic-certifications/${certification.b_id_organic}` }),
      ),
    );
  });

  app.openapi(getRoute, async (c) => {
    const { b_id_organic } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'organic certification', b_id_organic, 'read');
    const certification = await getOrganicCertification(db, b_id_organic);
    if (!certification) throw notFound('The organic certification does not exist.');
    return readResponse(c, certification);
  });

  app.openapi(deleteRoute, async (c) => {
    const { b_id_organic } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'organic certification', id: b_id_organic },
      (tx) => deleteOrganicCertification(tx, b_id_organic, precondition),
      { action: 'delete', kind: 'organic certification', id: b_id_organic },
    );
    return noContent(c);
  });

  return app;
}
