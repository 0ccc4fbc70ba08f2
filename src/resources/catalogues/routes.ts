// HTTP for the crop and fertilizer catalogues: paginated, searchable by name or code.
import { createRoute, z } from '@hono/zod-openapi';
import { apiKeySecurity } from '../../http/openapi.js';
import type { PageQuery } from '../../db/paging.js';
import { envelope, pageQuerySchema, pageResponses } from '../../http/pagination.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { catalogueFertilizerSchema, documentedFields } from '../fertilizers/schemas.js';
import { cultivationSchema } from '../cultivations/schemas.js';
import { crops } from '../../catalogues/crops.js';
import { fertilizerCatalogue } from '../../catalogues/fertilizers.js';
import { json } from '../../http/responses.js';

const searchQuerySchema = pageQuerySchema.extend({
  q: z.string().max(100).optional().openapi({ description: 'Case-insensitive part of a name (Dutch or English) or of the code.' }),
});

const cropEntrySchema = cultivationSchema
  .omit({
    b_lu: true,
    b_id: true,
    b_lu_start: true,
    b_lu_end: true,
    m_cropresidue: true,
    b_lu_variety: true,
    created_at: true,
    updated_at: true,
  })
  .openapi('CatalogueCrop');

const documentedFertilizers = fertilizerCatalogue.map(documentedFields);

function search<T>(entries: readonly T[], texts: (entry: T) => Array<string | null>, query: PageQuery & { q?: string | undefined }) {
  const needle = query.q?.trim().toLowerCase();
  const matches = needle ? entries.filter((entry) => texts(entry).some((text) => text?.toLowerCase().includes(needle))) : entries;
  return envelope(matches.slice(query.offset, query.offset + query.limit), query, matches.length);
}

const cropsRoute = createRoute({
  method: 'get',
  path: '/api/catalogues/cultivations',
  operationId: 'listCultivationCatalogue',
  tags: ['Catalogues'],
  summary: 'The BRP crop catalogue',
  description: 'In catalogue order. b_lu_catalogue is what a cultivation stores.',
  security: apiKeySecurity,
  request: { query: searchQuerySchema },
  responses: pageResponses('One page of crops.', cropEntrySchema, 'CatalogueCropPage'),
});

const fertilizersRoute = createRoute({
  method: 'get',
  path: '/api/catalogues/fertilizers',
  operationId: 'listFertilizerCatalogue',
  tags: ['Catalogues'],
  summary: 'The SRM and BAAT fertilizer catalogues',
  description: 'SRM first, then BAAT, in catalogue order. p_id_catalogue is what a farm acquires.',
  security: apiKeySecurity,
  request: { query: searchQuerySchema },
  responses: pageResponses('One page of fertilizers.', catalogueFertilizerSchema, 'CatalogueFertilizerPage'),
});

export function catalogueRoutes() {
  const app = new ApiRoutes();
  app.openapi(cropsRoute, (c) =>
    json(
      c,
      search(crops, (e) => [e.b_lu_name, e.b_lu_name_en, e.b_lu_catalogue], c.req.valid('query')),
      200,
    ),
  );
  app.openapi(fertilizersRoute, (c) =>
    json(
      c,
      search(documentedFertilizers, (e) => [e.p_name_nl, e.p_id_catalogue], c.req.valid('query')),
      200,
    ),
  );
  return app;
}
