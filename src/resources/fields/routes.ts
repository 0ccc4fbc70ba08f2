// HTTP for fields: list and add per farm; get, change and delete one.
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import { respondWithin } from '../../http/write-response.js';
import { authorize } from '../../access/roles.js';
import type { DatabaseHandle } from '../../db/client.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema } from '../../http/pagination.js';
import { notFound } from '../../core/domain-errors.js';
import { idParams, jsonContent, locationHeader } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmIdParams } from '../farms/schemas.js';
import { fieldCreateSchema, fieldFeatureCollectionSchema, fieldSchema, fieldSummarySchema, fieldUpdateSchema } from './schemas.js';
import { createField, deleteField, getField, listFields, listFieldsWithGeometry, updateField } from './store.js';
import { featureCollection } from './feature-collection.js';
import { geoJson, json, noContent } from '../../http/responses.js';
import { negotiate } from '../../http/negotiation.js';
import {
  etagHeader,
  ifMatch,
  ifMatchParameter,
  ifNoneMatchParameter,
  notModifiedResponse,
  readResponse,
  recordResponse,
} from '../../http/etag.js';

const tags = ['Fields'];
const GEOJSON = 'application/geo+json';
/** What the list answers in; the first is the default. */
const LIST_MEDIA_TYPES = ['application/json', GEOJSON] as const;
const varyAcceptHeader = {
  Vary: { schema: { type: 'string' as const, example: 'Accept' }, description: 'Accept: the media type of the answer depends on it.' },
};
const fieldIdParams = idParams('b_id', 'Field identifier.');

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}/fields',
  operationId: 'listFieldsOfFarm',
  tags,
  summary: 'List the fields of a farm',
  description:
    'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only fields whose period [b_start, b_end, or open when b_end is null] overlaps the window are listed. ' +
    'JSON items carry no geometry. When Accept prefers `application/geo+json` (by q-value; for equal ones, the more specific range, then the one listed first), the same page is an RFC 7946 FeatureCollection with each field as a Feature with its geometry, so a map of a farm is one request. ' +
    'Without Accept, or with one that allows neither type, the answer is JSON.',
  security: apiKeySecurity,
  request: { params: farmIdParams, query: pagedDateRangeQuerySchema },
  responses: {
    200: {
      description: 'One page of fields, as JSON or as GeoJSON, whichever Accept prefers.',
      headers: varyAcceptHeader,
      content: {
        ...jsonContent(envelopeSchema(fieldSummarySchema, 'FieldPage')),
        [GEOJSON]: { schema: fieldFeatureCollectionSchema },
      },
    },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'unprocessable-entity'),
  },
});

const createFieldRoute = createRoute({
  method: 'post',
  path: '/api/farms/{b_id_farm}/fields',
  operationId: 'createFieldOnFarm',
  tags,
  summary: 'Add a field to a farm (owner or advisor)',
  description:
    'b_area (ha) and b_centroid are computed from b_geometry. A geometry over 10,000 positions, or one that is not a valid Polygon or MultiPolygon, is 422.',
  security: apiKeySecurity,
  request: { params: farmIdParams, body: { required: true, content: jsonContent(fieldCreateSchema) } },
  responses: {
    201: { description: 'The field.', headers: { ...locationHeader, ...etagHeader }, content: jsonContent(fieldSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'unprocessable-entity'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/fields/{b_id}',
  operationId: 'getField',
  tags,
  summary: 'Get a field, with its geometry',
  security: apiKeySecurity,
  request: { params: fieldIdParams },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The field.', headers: etagHeader, content: jsonContent(fieldSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/api/fields/{b_id}',
  operationId: 'updateField',
  tags,
  summary: 'Change a field (owner or advisor)',
  description:
    'Any subset. A new geometry recomputes b_area and b_centroid. b_end must stay after b_start, stored or sent (409 when it contradicts a stored date).',
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: { required: true, content: jsonContent(fieldUpdateSchema) } },
  parameters: [ifMatchParameter],
  responses: {
    200: { description: 'The field after the change.', headers: etagHeader, content: jsonContent(fieldSchema) },
    ...errorResponses(
      ...authenticatedErrors,
      ...bodyErrors,
      'not-found',
      'forbidden',
      'conflict',
      'unprocessable-entity',
      'precondition-failed',
    ),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/fields/{b_id}',
  operationId: 'deleteField',
  tags,
  summary: 'Delete a field with its cultivations, harvests, soil analyses and fertilizer applications, permanently',
  security: apiKeySecurity,
  request: { params: fieldIdParams },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted. A repeated delete answers 404.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

export function fieldRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const query = c.req.valid('query');
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    if (negotiate(c, LIST_MEDIA_TYPES) === GEOJSON) {
      const { data, total } = await listFieldsWithGeometry(db, b_id_farm, query);
      return geoJson(c, featureCollection(data, query, total), 200, { vary: 'Accept' });
    }
    const { data, total } = await listFields(db, b_id_farm, query);
    return json(c, envelope(data, query, total), 200, { vary: 'Accept' });
  });

  app.openapi(createFieldRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: 'farm', id: b_id_farm },
      (tx) => createField(tx, b_id_farm, input),
      { action: 'create', kind: 'field', id: (f) => f.b_id },
      respondWithin(c, (field) => recordResponse(c, field, 201, { location: `/api/fields/${field.b_id}` })),
    );
  });

  app.openapi(getRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    const field = await getField(db, b_id);
    if (!field) throw notFound('The field does not exist.');
    return readResponse(c, field);
  });

  app.openapi(updateRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const changes = c.req.valid('json');
    const precondition = ifMatch(c);
    const field = await auditedWrite(
      db,
      c.get('principal'),
      { kind: 'field', id: b_id },
      (tx) => updateField(tx, b_id, changes, precondition),
      {
        action: 'update',
        kind: 'field',
        id: b_id,
      },
    );
    return recordResponse(c, field, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(db, c.get('principal'), { kind: 'field', id: b_id }, (tx) => deleteField(tx, b_id, precondition), {
      action: 'delete',
      kind: 'field',
      id: b_id,
    });
    return noContent(c);
  });

  return app;
}
