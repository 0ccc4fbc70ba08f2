// HTTP for the crop and fertilizer catalogues: paginated, searchable by name or code.
import { createRoute, z } from '@hono/zod-openapi';
import { apiKeySecurity } from '../../http/openapi.js';
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

/** A catalogue as one page of its entries at a time, those whose `texts` hold `q` where a client sends it. */
interface CatalogueList<T> {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The 200's description, the entry's schema and the page schema's name. */
  page: [string, z.ZodType, string];
  entries: readonly T[];
  texts: (entry: T) => Array<string | null>;
}

function catalogueList<T>(app: ApiRoutes, { path, operationId, summary, description, page, entries, texts }: CatalogueList<T>) {
  const route = createRoute({
    method: 'get',
    path,
    operationId,
    tags: ['Catalogues'],
    summary,
    description,
    security: apiKeySecurity,
    request: { query: searchQuerySchema },
    responses: pageResponses(...page),
  });
  app.openapi(route, (c) => {
    const query = c.req.valid('query');
    const needle = query.q?.trim().toLowerCase();
    const matches = needle ? entries.filter((entry) => texts(entry).some((text) => text?.toLowerCase().includes(needle))) : entries;
    return json(c, envelope(matches.slice(query.offset, query.offset + query.limit), query, matches.length), 200);
  });
}

export function catalogueRoutes() {
  const app = new ApiRoutes();
  catalogueList(app, {
    path: '/api/catalogues/cultivations',
    operationId: 'listCultivationCatalogue',
    summary: 'The BRP crop catalogue',
    description: 'In catalogue order. b_lu_catalogue is what a cultivation stores.',
    page: ['One page of crops.', cropEntrySchema, 'CatalogueCropPage'],
    entries: crops,
    texts: (crop) => [crop.b_lu_name, crop.b_lu_name_en, crop.b_lu_catalogue],
  });
  catalogueList(app, {
    path: '/api/catalogues/fertilizers',
    operationId: 'listFertilizerCatalogue',
    summary: 'The SRM and BAAT fertilizer catalogues',
    description: 'SRM first, then BAAT, in catalogue order. p_id_catalogue is what a farm acquires.',
    page: ['One page of fertilizers.', catalogueFertilizerSchema, 'CatalogueFertilizerPage'],
    entries: documentedFertilizers,
    texts: (fertilizer) => [fertilizer.p_name_nl, fertilizer.p_id_catalogue],
  });
  return app;
}
