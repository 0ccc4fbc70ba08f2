// HTTP for the usage norms of a field or a farm: they read stored records and never change them.
import { createRoute } from '@hono/zod-openapi';
import { authorize } from '../../access/roles.js';
import type { DatabaseHandle } from '../../db/client.js';
import { notFound } from '../../core/domain-errors.js';
import { json } from '../../http/responses.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { apiKeySecurity } from '../../http/openapi.js';
import { jsonContent } from '../../http/route-helpers.js';
import { calculationErrors, calculationTags, fieldIdParams } from '../operations.js';
import { farmIdParams } from '../../resources/farms/schemas.js';
import { inOneSnapshot } from '../../db/paging.js';
import { answerOf, whole } from '../farms.js';
import { readNormsInputs, theFieldsFarm } from './load-inputs.js';
import { farmNormsSchema, fieldNormsResponseSchema, normsOptionsSchema } from './schemas.js';
import { fieldNormsResponse } from './response.js';
import { farmNormsAnswers } from './farms.js';
import { fieldNorms } from './field.js';
import { requestedNormYear } from './requested-year.js';
import { NORM_YEARS } from './tables.js';

const options = { required: false, content: jsonContent(normsOptionsSchema) };
const note = `Limited to 10 requests per minute per key, with the other calculations. A year other than ${NORM_YEARS.join(' or ')} is 422.`;

const fieldNormsRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/calculations/norms',
  operationId: 'calculateFieldNorms',
  tags: calculationTags,
  summary: 'Usage norms of a field',
  description: `The Dutch usage norms (gebruiksnormen) of the field for the year (default: the current year), how far the applications of that year fill them, and the room left, kg/ha. A norm without a value says why; the answer is still 200. ${note}`,
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: options },
  responses: { 200: { description: 'The norms.', content: jsonContent(fieldNormsResponseSchema) }, ...calculationErrors },
});

const farmNormsRoute = createRoute({
  method: 'post',
  path: '/api/farms/{b_id_farm}/calculations/norms',
  operationId: 'calculateFarmNorms',
  tags: calculationTags,
  summary: 'Usage norms of a farm',
  description: `Every field of the farm in the year (default: the current year) with its norms, and the farm totals in kg over the fields whose every norm and filling has a value; the others are listed with the reason. ${note}`,
  security: apiKeySecurity,
  request: { params: farmIdParams, body: options },
  responses: { 200: { description: 'The norms.', content: jsonContent(farmNormsSchema) }, ...calculationErrors },
});

export function normsRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  app.openapi(fieldNormsRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const year = requestedNormYear(c.req.valid('json'));
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    const { farm, fields } = theFieldsFarm(await inOneSnapshot(db, (tx) => readNormsInputs(tx, { b_id }, year)));
    const [field] = fields;
    if (!field) throw notFound('The field does not exist.');
    return json(c, { ...fieldNormsResponse(fieldNorms(field, farm, year)), year }, 200);
  });

  app.openapi(farmNormsRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const year = requestedNormYear(c.req.valid('json'));
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    return json(c, answerOf(await farmNormsAnswers(db, [b_id_farm], year, whole), b_id_farm), 200);
  });

  return app;
}
