// The field on the wire. b_area and b_centroid are computed from b_geometry, never taken from the client.
import { z } from '@hono/zod-openapi';
import { soilRegions } from '../../db/schema.js';
import { recordTimesShape } from '../record-times.js';
import { dateSchema } from '../../http/dates.js';
import { paginationSchema } from '../../http/pagination.js';
import { unprocessable } from '../../http/validation.js';
import { geometryProblem, MAX_COORDINATES, MAX_POLYGONS, MAX_RINGS } from './geometry.js';
import { nameSchema } from '../value-schemas.js';
import { MAX_FEATURES_BYTES } from './page-bytes.js';
import { GEOMETRY_VARIANTS, SIMPLIFIED_RING_POSITIONS, SIMPLIFY_TOLERANCE_METRES } from './simplify.js';

export const acquiringMethods = [
  'owner',
  'lease',
  'nl_01',
  'nl_02',
  'nl_03',
  'nl_04',
  'nl_07',
  'nl_09',
  'nl_10',
  'nl_11',
  'nl_12',
  'nl_13',
  'nl_61',
  'nl_63',
  'unknown',
] as const;

// Shape errors (not an object, no coordinates array) are 400; everything about the coordinates is
// 422, the first problem only. The coordinates are taken as any array without zod visiting each
// element: the geometry's own check measures them first and stops at the first failure, where a
// schema over the nesting would report one issue per element of a body of a million.
const geometrySchema = z
  .object({
    type: z.string().openapi({ description: 'Polygon or MultiPolygon.' }),
    coordinates: z
      .custom<unknown[]>((value) => Array.isArray(value), {
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array'),
      })
      .openapi({
        type: 'array',
        items: {},
        description:
          'Polygon: an array of rings; MultiPolygon: an array of polygons. A ring is an array of [longitude, latitude] positions, closed, with at least 4.',
      }),
  })
  .superRefine((geometry, ctx) => {
    const problem = geometryProblem(geometry);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, params: unprocessable });
  })
  .openapi('FieldGeometry', {
    description: `GeoJSON Polygon or MultiPolygon in WGS 84, at most ${MAX_COORDINATES} positions in all rings together, and so at most ${MAX_RINGS} rings and ${MAX_POLYGONS} polygons, none empty (otherwise 422, naming the first problem).`,
    example: {
      type: 'Polygon',
      coordinates: [
        [
          [5.0, 52.0],
          [5.01, 52.0],
          [5.01, 52.01],
          [5.0, 52.01],
          [5.0, 52.0],
        ],
      ],
    },
  });

const name = nameSchema('Name of the field.', 'Achter de schuur');

const sourceIdDescription =
  "The field's identifier in the system it came from, such as the sector id of an RVO parcel export; null when not stated. Importers match a file's fields to stored ones by it.";
const sourceId = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .nullable()
  .openapi({ description: sourceIdDescription, example: '3C0B2E59-6E8F-4B4E-9F0A-2E6B4C1D7A10' });

const endAfterStart = (field: { b_start?: string; b_end?: string | null }, ctx: z.RefinementCtx) => {
  if (field.b_start && field.b_end && field.b_end <= field.b_start) {
    ctx.addIssue({ code: 'custom', path: ['b_end'], message: 'must be after b_start', params: unprocessable });
  }
};

// Where the field lies, as the Dutch usage norms see it (the reference reads these from national maps).
const soilRegionDescription =
  'Soil region of the Dutch usage norms (grondsoort): klei (clay), veen (peat), loess, zand_nwc (sand, north, west and centre) or zand_zuid (sand, south); null when not stated. The nitrogen usage norm needs it.';
const areaFlags = {
  b_in_nv_area: 'Whether the field lies in an area polluted with nutrients (NV-gebied).',
  b_in_gwbg: 'Whether the field lies in a groundwater protection area (grondwaterbeschermingsgebied), its 100 m zone included.',
  b_in_natura2000: 'Whether the field lies in or near a Natura 2000 area.',
  b_in_derogation_free_zone: 'Whether the field lies in a derogation-free zone (derogatievrije zone).',
};
const locationShape = {
  b_soil_region: z.enum(soilRegions).nullable().openapi({ description: soilRegionDescription }),
  b_in_nv_area: z.boolean().openapi({ description: areaFlags.b_in_nv_area }),
  b_in_gwbg: z.boolean().openapi({ description: areaFlags.b_in_gwbg }),
  b_in_natura2000: z.boolean().openapi({ description: areaFlags.b_in_natura2000 }),
  b_in_derogation_free_zone: z.boolean().openapi({ description: areaFlags.b_in_derogation_free_zone }),
};

const writableFields = {
  b_name: name,
  b_id_source: sourceId,
  b_geometry: geometrySchema,
  b_start: dateSchema.openapi({ description: 'Date the field came to the farm.' }),
  b_end: dateSchema.nullable().optional().openapi({ description: 'Date the field left the farm; after b_start; null while it stays.' }),
  b_acquiring_method: z
    .enum(acquiringMethods)
    .openapi({ description: 'How the farm holds the field: `owner` (= nl_01), `lease` (= nl_02), or a reference code.' }),
  b_bufferstrip: z.boolean().openapi({
    description:
      'Whether the field is a buffer strip. Left out on creation: true when the name contains "buffer", or the field is under 2.5 ha and long and narrow (perimeter / √area ≥ 20).',
  }),
  ...locationShape,
};

export const fieldCreateSchema = z
  .strictObject({
    ...writableFields,
    b_id_source: writableFields.b_id_source.default(null),
    b_acquiring_method: writableFields.b_acquiring_method.default('unknown'),
    b_bufferstrip: writableFields.b_bufferstrip.optional(),
    b_soil_region: writableFields.b_soil_region.default(null),
    b_in_nv_area: writableFields.b_in_nv_area.default(false),
    b_in_gwbg: writableFields.b_in_gwbg.default(false),
    b_in_natura2000: writableFields.b_in_natura2000.default(false),
    b_in_derogation_free_zone: writableFields.b_in_derogation_free_zone.default(false),
  })
  .superRefine(endAfterStart)
  .openapi('FieldCreate');

export const fieldUpdateSchema = z.strictObject(writableFields).partial().superRefine(endAfterStart).openapi('FieldUpdate');

const fieldSummaryShape = {
  b_id: z.string().openapi({ description: 'Field identifier.' }),
  b_id_farm: z.string().openapi({ description: 'Identifier of the farm the field is on.' }),
  b_name: z.string().openapi({ description: 'Name of the field.' }),
  b_id_source: z.string().nullable().openapi({ description: sourceIdDescription }),
  b_area: z.number().openapi({ description: 'Area in hectares (geodesic, 2 decimals), computed from the geometry.' }),
  b_centroid: z.tuple([z.number(), z.number()]).openapi({ description: 'Area-weighted centroid [longitude, latitude].' }),
  b_start: z.string().openapi({ format: 'date', description: 'Date the field came to the farm.' }),
  b_end: z.string().nullable().openapi({ format: 'date', description: 'Date the field left the farm; null while it stays.' }),
  b_acquiring_method: z.string().openapi({ description: 'How the farm holds the field: owner, lease, or a reference code.' }),
  b_bufferstrip: z.boolean().openapi({ description: 'Whether the field is a buffer strip.' }),
  ...locationShape,
  ...recordTimesShape,
};

export const fieldSummarySchema = z
  .object(fieldSummaryShape)
  .openapi('FieldSummary', { description: 'A field as listed: without its geometry.' });
const storedGeometrySchema = z.object({
  type: z.enum(['Polygon', 'MultiPolygon']).openapi({ description: 'GeoJSON geometry type.' }),
  coordinates: z.array(z.any()).openapi({ description: 'GeoJSON coordinates, [longitude, latitude] in WGS 84.' }),
});

/** `?geometry=` of the reads of fields; the OpenAPI description of each read says what it does there. */
export const geometryQuerySchema = z.object({
  geometry: z
    .enum(GEOMETRY_VARIANTS)
    .default('full')
    .openapi({
      description:
        `The geometry to answer: \`full\` (the default) as stored; \`simplified\` with at most ${SIMPLIFIED_RING_POSITIONS} positions a ring, ` +
        `each dropped position within ${SIMPLIFY_TOLERANCE_METRES} m of the simplified ring unless the cap comes first (Douglas–Peucker); \`none\`: null.`,
      example: 'simplified',
    }),
});

export const fieldSchema = z
  .object({
    ...fieldSummaryShape,
    b_geometry: storedGeometrySchema.nullable().openapi({
      description: 'The boundary of the field, as it was sent; simplified or null when a read asks so (`geometry=simplified` or `none`).',
    }),
  })
  .openapi('Field');

const featureExample = {
  type: 'Feature',
  id: 'aIuOORj2wiNH8DzkkKpmTQ',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [5.66, 51.97],
        [5.664, 51.97],
        [5.664, 51.973],
        [5.66, 51.973],
        [5.66, 51.97],
      ],
    ],
  },
  properties: {
    b_id: 'aIuOORj2wiNH8DzkkKpmTQ',
    b_id_farm: 'PTyv0lmYRHwtso7CcrrIMw',
    b_name: 'Achter de schuur',
    b_id_source: null,
    b_area: 9.14,
    b_centroid: [5.662, 51.9715],
    b_start: '2020-01-01',
    b_end: null,
    b_acquiring_method: 'owner',
    b_bufferstrip: false,
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-01T10:00:00.000Z',
  },
};

export const fieldFeatureCollectionSchema = z
  .object({
    type: z.literal('FeatureCollection').openapi({ description: 'GeoJSON object type.' }),
    features: z
      .array(
        z
          .object({
            type: z.literal('Feature').openapi({ description: 'GeoJSON object type.' }),
            id: z.string().openapi({ description: 'Field identifier (b_id).' }),
            geometry: storedGeometrySchema.nullable().openapi({
              description:
                'The boundary of the field, its rings by the right-hand rule of RFC 7946: the outer ring counterclockwise, holes clockwise (a ring sent the other way round comes back reversed). Simplified with `geometry=simplified`; null with `geometry=none`.',
            }),
            properties: fieldSummarySchema,
          })
          .openapi('FieldFeature', {
            description: 'A field as a GeoJSON Feature: its properties are the field as the JSON list gives it.',
          }),
      )
      .openapi({ description: 'The fields of the requested page, in list order.' }),
    pagination: paginationSchema
      .extend({
        next_offset: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'The offset of the next page: `offset` + the features on this one; null when no field follows.' }),
        size_limited: z.boolean().openapi({
          description: `True when the page holds fewer than \`limit\` features because the next one would take its features past ${MAX_FEATURES_BYTES} bytes of JSON.`,
        }),
      })
      .openapi({ description: 'Where this page lies in the whole list, and where the next one starts.' }),
  })
  .openapi('FieldFeatureCollection', {
    description: 'One page of fields as an RFC 7946 FeatureCollection; `pagination` is a foreign member, as in the JSON list.',
    example: {
      type: 'FeatureCollection',
      features: [featureExample],
      pagination: { limit: 50, offset: 0, total: 1, next_offset: null, size_limited: false },
    },
  });

export type FieldCreate = z.infer<typeof fieldCreateSchema>;
export type FieldUpdate = z.infer<typeof fieldUpdateSchema>;
export type FieldSummary = z.infer<typeof fieldSummarySchema>;
