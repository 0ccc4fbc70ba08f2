// HTTP for the dose of a field: what its applications brought, and the room left under the usage norms.
import { createRoute } from '@hono/zod-openapi';
import { authorize } from '../../access/roles.js';
import { DomainError, notFound } from '../../core/domain-errors.js';
import type { Database, DatabaseHandle } from '../../db/client.js';
import { inOneSnapshot } from '../../db/paging.js';
import { servedOnRememberedKey } from '../../access/remembered-key-routes.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { apiKeySecurity } from '../../http/openapi.js';
import { json } from '../../http/responses.js';
import { jsonContent } from '../../http/route-helpers.js';
import { requestedTimeframe, today, type Timeframe } from '../dates.js';
import { loadDoseApplications } from '../inputs.js';
import { readNormsInputs, theFieldsFarm } from '../norms/load-inputs.js';
import { fieldNormsResponse } from '../norms/response.js';
import { fieldNorms } from '../norms/field.js';
import { productRoom } from '../norms/product-room.js';
import { applicationDateIn, doseRecommendation, recommendationYear } from '../norms/recommendation.js';
import { calculationErrors, calculationTags, fieldIdParams, rateNote } from '../operations.js';
import { fieldDose } from './dose.js';
import { loadFarmFertilizersOfField } from './farm-fertilizers.js';
import { doseOptionsSchema, doseSchema } from './schemas.js';

const doseRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/calculations/dose',
  operationId: 'calculateFieldDose',
  tags: calculationTags,
  summary: 'Nutrients applied on a field, and the room left under the usage norms',
  description: `The nutrient dose of the fertilizer applications dated in the timeframe (default: the current calendar year), in total and per application, and as recommendation the room left under the Dutch usage norms of the timeframe's calendar year (when it lies within 2025 or 2026), with the most of each of the farm's fertilizers that still fits when applied on application_date. ${rateNote} An application_date outside the recommendation's year is 422.`,
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: { required: false, content: jsonContent(doseOptionsSchema) } },
  responses: { 200: { description: 'The dose.', content: jsonContent(doseSchema) }, ...calculationErrors },
});

/**
 * The room left under the usage norms of the timeframe's year and the most of each of the farm's fertilizers
 * that fits on `applicationDate`, or why there is none; `tx` is the dose's snapshot.
 */
async function recommendation(tx: Database, b_id: string, timeframe: Timeframe, applicationDate: string | undefined) {
  const asked = recommendationYear(timeframe);
  if ('message' in asked) return { recommendation: null, recommendationMessage: asked.message };
  const day = applicationDateIn(asked.year, applicationDate, today());
  if ('message' in day) throw new DomainError('unprocessable-entity', day.message);
  const { farm, fields } = theFieldsFarm(await readNormsInputs(tx, { b_id }, asked.year));
  const [field] = fields;
  if (!field) throw notFound('The field does not exist.');
  const fertilizers = (await loadFarmFertilizersOfField(tx, b_id)).map((product) =>
    productRoom(field, farm, asked.year, day.date, product),
  );
  const norms = fieldNormsResponse(fieldNorms(field, farm, asked.year));
  return { recommendation: doseRecommendation(norms, asked.year, { application_date: day.date, fertilizers }) };
}

export function doseRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(
    doseRoute,
    servedOnRememberedKey(async (c) => {
      const { b_id } = c.req.valid('param');
      const body = c.req.valid('json');
      const timeframe = requestedTimeframe(body);
      await authorize(db, c.get('principal'), 'field', b_id, 'read');
      // The applied dose and the room left read one snapshot, so that they agree with each other.
      const response = await inOneSnapshot(db, async (tx) => {
        const dose = fieldDose(await loadDoseApplications(tx, b_id, timeframe));
        return { ...dose, timeframe, ...(await recommendation(tx, b_id, timeframe, body.application_date)) };
      });
      return json(c, response, 200);
    }),
  );

  return app;
}
