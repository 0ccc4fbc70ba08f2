// HTTP for fields: list and add per farm; get, change and delete one.
import { createRoute } from '@hono/zod-openapi';
import { authorize, authorizedList } from '../../access/roles.js';
import type { DatabaseHandle } from '../../db/client.js';
import { pagedDateRangeQuerySchema } from '../../http/dates.js';
import { apiKeySecurity, authenticatedErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmResource } from '../farms/routes.js';
import { recordResource } from '../record-resource.js';
import { addRecordRoutes } from '../record-routes.js';
import {
  fieldCreateSchema,
  fieldFeatureCollectionSchema,
  fieldSchema,
  fieldSummarySchema,
  fieldUpdateSchema,
  geometryQuerySchema,
} from './schemas.js';
import { createField, deleteField, getField, listFields, listFieldsWithGeometry, updateField } from './store.js';
import { featureCollection } from './feature-collection.js';
import { MAX_FEATURES_BYTES } from './page-bytes.js';
import { SIMPLIFIED_RING_POSITIONS } from './simplify.js';
import { geoJson, json } from '../../http/responses.js';
import { negotiate } from '../../http/negotiation.js';
import { Gate } from '../../http/gate.js';

export const fieldResource = recordResource({ kind: 'field', plural: 'fields', id: 'b_id', schema: fieldSchema, parent: farmResource });

const GEOJSON = 'application/geo+json';
/** What the list answers in; the first is the default. */
const LIST_MEDIA_TYPES = ['application/json', GEOJSON] as const;
/** GeoJSON pages with geometries made at once (docs/operations.md); a request for another waits its turn. */
const PAGES_MADE_AT_ONCE = 2;
const varyAcceptHeader = {
  Vary: { schema: { type: 'string' as const, example: 'Accept' }, description: 'Accept: the media type of the answer depends on it.' },
};

const listQuerySchema = pagedDateRangeQuerySchema.safeExtend(geometryQuerySchema.shape);

// Not listRecords: a page of fields is JSON or GeoJSON, as Accept prefers.
const listRoute = createRoute({
  method: 'get',
  path: fieldResource.listPath,
  operationId: 'listFieldsOfFarm',
  tags: fieldResource.names.tags,
  summary: 'List the fields of a farm',
  description:
    'Ordered by creation time, then identifier. With `start` and/or `end` (inclusive), only fields whose period [b_start, b_end, or open when b_end is null] overlaps the window are listed. ' +
    'JSON items carry no geometry. When Accept prefers `application/geo+json` (by q-value; for equal ones, the more specific range, then the one listed first), the same page is an RFC 7946 FeatureCollection with each field as a Feature with its geometry, so a map of a farm is one request. ' +
    `\`geometry\` chooses the Features' geometry: as stored, \`simplified\` (at most ${SIMPLIFIED_RING_POSITIONS} positions a ring) or \`none\` (null); JSON items have none whatever it says. ` +
    `A GeoJSON page also stops early, before the field that would take its features past ${MAX_FEATURES_BYTES} bytes (4 MiB) of JSON, each geometry counted as answered (as stored, simplified, or \`null\` with \`geometry=none\`); it always holds at least one field. \`pagination.size_limited\` then says so, and the next page starts at \`pagination.next_offset\`. ` +
    'Without Accept, or with one that allows neither type, the answer is JSON.',
  security: apiKeySecurity,
  request: { params: farmResource.id.params, query: listQuerySchema },
  responses: {
    200: {
      description:
        'One page of fields, as JSON or as GeoJSON, whichever Accept prefers; a GeoJSON page is bounded by size as well as by `limit`.',
      headers: varyAcceptHeader,
      content: {
        ...jsonContent(envelopeSchema(fieldSummarySchema, 'FieldPage')),
        [GEOJSON]: { schema: fieldFeatureCollectionSchema },
      },
    },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'unprocessable-entity'),
  },
});

export function fieldRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  // A GeoJSON page with its geometries takes several times its few MB while it is made (the rows, the
  // parsed positions, the JSON text): the pages of many clients made at once held hundreds of MB.
  const pagesInMaking = new Gate(PAGES_MADE_AT_ONCE);

  app.openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const query = c.req.valid('query');
    const principal = c.get('principal');
    if (negotiate(c, LIST_MEDIA_TYPES) === GEOJSON) {
      // A GeoJSON page reads in several statements, the first of which measures the geometries: asked first.
      await authorize(db, principal, 'farm', b_id_farm, 'read');
      const page = async () => {
        const { data, total } = await listFieldsWithGeometry(db, b_id_farm, query, query.geometry);
        return geoJson(c, featureCollection(data, query, total), 200, { vary: 'Accept' });
      };
      return query.geometry === 'none' ? page() : pagesInMaking.through(page);
    }
    const { data, total } = await authorizedList(db, principal, 'farm', b_id_farm, 'read', (gate) =>
      listFields(db, b_id_farm, query, gate),
    );
    return json(c, envelope(data, query, total), 200, { vary: 'Accept' });
  });

  return addRecordRoutes(app, db, fieldResource, {
    create: {
      summary: 'Add a field to a farm (owner or advisor)',
      description:
        'b_area (ha) and b_centroid are computed from b_geometry. A geometry over 10,000 positions, or one that is not a valid Polygon or MultiPolygon, is 422.',
      body: fieldCreateSchema,
      errors: ['unprocessable-entity'],
      create: createField,
    },
    get: {
      summary: 'Get a field, with its geometry',
      description:
        `\`geometry=simplified\` answers b_geometry with at most ${SIMPLIFIED_RING_POSITIONS} positions a ring, \`geometry=none\` as null. ` +
        'The ETag is that of the answer, so it differs between them: If-Match on a change takes the ETag of the field as stored (a read without `geometry`, or the answer to a write).',
      query: geometryQuerySchema,
      read: (db, id, { geometry }) => getField(db, id, geometry),
    },
    update: {
      summary: 'Change a field (owner or advisor)',
      description:
        'Any subset. A new geometry recomputes b_area and b_centroid. b_end must stay after b_start, stored or sent (409 when it contradicts a stored date).',
      body: fieldUpdateSchema,
      errors: ['conflict', 'unprocessable-entity'],
      update: updateField,
    },
    delete: {
      summary: 'Delete a field with its cultivations, harvests, soil analyses and fertilizer applications, permanently',
      remove: deleteField,
    },
  });
}
