// HTTP for the calculations: they read stored records (a read of the resource) and never change them.
import { createRoute } from '@hono/zod-openapi';
import { authorize } from '../access/roles.js';
import type { Config } from '../core/config.js';
import type { DatabaseHandle } from '../db/client.js';
import { apiKeySecurity, authenticatedErrors, bodyErrors, errorResponses } from '../http/openapi.js';
import { jsonContent } from '../http/route-helpers.js';
import { idParams } from '../http/route-helpers.js';
import { ApiRoutes } from '../http/api-routes.js';
import { farmIdParams } from '../resources/farms/schemas.js';
import { requestedTimeframe, today, type Timeframe } from './dates.js';
import { fieldDose } from './dose/dose.js';
import { loadBalanceFields, loadDoseApplications } from './inputs.js';
import { farmBalance, type FieldResult } from './nitrogen-balance/farm.js';
import { fieldBalance } from './nitrogen-balance/field.js';
import { fieldResult } from './field-result.js';
import type { BalanceField } from './nitrogen-balance/inputs.js';
import { calculationOptionsSchema, doseOptionsSchema, doseSchema, farmBalanceSchema, fieldBalanceResponseSchema } from './schemas.js';
import { DomainError, notFound } from '../core/domain-errors.js';
import { json } from '../http/responses.js';
import { inOneSnapshot } from '../db/paging.js';
import { readNormsInputs } from './norms-inputs.js';
import { registerNormsRoutes } from './norms-routes.js';
import { fieldNormsAnswer } from './norms/answer.js';
import { fieldNorms } from './norms/field.js';
import { productRoom } from './norms/product-room.js';
import { applicationDateIn, doseRecommendation, recommendationYear } from './norms/recommendation.js';
import { loadFarmFertilizersOfField } from './dose/farm-fertilizers.js';
import type { Database } from '../db/client.js';

const tags = ['Calculations'];
const fieldIdParams = idParams('b_id', 'Field identifier.');
const options = { required: false, content: jsonContent(calculationOptionsSchema) };
const errors = errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'unprocessable-entity');
const rateNote = 'Limited to 10 requests per minute per key. `end` before `start` is 422.';

const fieldBalanceRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/calculations/nitrogen-balance',
  operationId: 'calculateFieldNitrogenBalance',
  tags,
  summary: 'Nitrogen balance of a field',
  description: `Over the timeframe (default: the current calendar year). A field that cannot be calculated answers 200 with balance null and an errorMessage saying what to add. ${rateNote}`,
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: options },
  responses: { 200: { description: 'The balance.', content: jsonContent(fieldBalanceResponseSchema) }, ...errors },
});

const farmBalanceRoute = createRoute({
  method: 'post',
  path: '/api/farms/{b_id_farm}/calculations/nitrogen-balance',
  operationId: 'calculateFarmNitrogenBalance',
  tags,
  summary: 'Nitrogen balance of a farm',
  description: `Every field of the farm in the timeframe (default: the current calendar year); fields that cannot be calculated are listed with their message and left out of the farm figures. ${rateNote}`,
  security: apiKeySecurity,
  request: { params: farmIdParams, body: options },
  responses: { 200: { description: 'The balance.', content: jsonContent(farmBalanceSchema) }, ...errors },
});

const doseRoute = createRoute({
  method: 'post',
  path: '/api/fields/{b_id}/calculations/dose',
  operationId: 'calculateFieldDose',
  tags,
  summary: 'Nutrients applied on a field, and the room left under the usage norms',
  description: `The nutrient dose of the fertilizer applications dated in the timeframe (default: the current calendar year), in total and per application, and as recommendation the room left under the Dutch usage norms of the timeframe's calendar year (when it lies within 2025 or 2026), with the most of each of the farm's fertilizers that still fits when applied on application_date. ${rateNote} An application_date outside the recommendation's year is 422.`,
  security: apiKeySecurity,
  request: { params: fieldIdParams, body: { required: false, content: jsonContent(doseOptionsSchema) } },
  responses: { 200: { description: 'The dose.', content: jsonContent(doseSchema) }, ...errors },
});

const nitrogenResult = (field: BalanceField, timeframe: Timeframe, deposition: number): FieldResult =>
  fieldResult(field, () => fieldBalance(field, timeframe, deposition));

/**
 * The room left under the usage norms of the timeframe's year and the most of each of the farm's fertilizers
 * that fits on `applicationDate`, or why there is none; `tx` is the dose's snapshot.
 */
async function recommendation(tx: Database, b_id: string, timeframe: Timeframe, applicationDate: string | undefined) {
  const asked = recommendationYear(timeframe);
  if ('message' in asked) return { recommendation: null, recommendationMessage: asked.message };
  const day = applicationDateIn(asked.year, applicationDate, today());
  if ('message' in day) throw new DomainError('unprocessable-entity', day.message);
  const { farm, fields } = await readNormsInputs(tx, { b_id }, asked.year);
  const [field] = fields;
  if (!field) throw notFound('The field does not exist.');
  const fertilizers = (await loadFarmFertilizersOfField(tx, b_id)).map((product) =>
    productRoom(field, farm, asked.year, day.date, product),
  );
  const norms = fieldNormsAnswer(fieldNorms(field, farm, asked.year));
  return { recommendation: doseRecommendation(norms, asked.year, { application_date: day.date, fertilizers }) };
}

export function calculationRoutes(config: Config, database: DatabaseHandle) {
  const db = database.db;
  const deposition = config.depositionKgNPerHaPerYear;
  const app = new ApiRoutes();

  app.openapi(fieldBalanceRoute, async (c) => {
    const { b_id } = c.req.valid('param');
    const timeframe = requestedTimeframe(c.req.valid('json'));
    await authorize(db, c.get('principal'), 'field', b_id, 'read');
    const [field] = await loadBalanceFields(db, { b_id }, timeframe);
    if (!field) throw notFound('The field does not exist.');
    return json(c, { ...nitrogenResult(field, timeframe, deposition), timeframe }, 200);
  });

  app.openapi(farmBalanceRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const timeframe = requestedTimeframe(c.req.valid('json'));
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'read');
    const fields = await loadBalanceFields(db, { b_id_farm }, timeframe);
    return json(c, { ...farmBalance(fields.map((field) => nitrogenResult(field, timeframe, deposition))), timeframe }, 200);
  });

  app.openapi(doseRoute, async (c) => {
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
  });

  registerNormsRoutes(app, db);

  return app;
}
