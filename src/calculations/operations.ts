// What the calculation operations share in the OpenAPI document: their tag, the field's path
// parameter, the optional timeframe body, the errors they answer, and their rate limit.
import { idParams, jsonContent } from '../http/route-helpers.js';
import { authenticatedErrors, bodyErrors, errorResponses } from '../http/openapi.js';
import { calculationOptionsSchema, MAX_TIMEFRAME_YEARS } from './schemas.js';

export const calculationTags = ['Calculations'];
export const fieldIdParams = idParams('b_id', 'Field identifier.');
export const timeframeBody = { required: false, content: jsonContent(calculationOptionsSchema) };
export const calculationErrors = errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'unprocessable-entity');
export const rateNote = `Limited to 10 requests per minute per key. \`end\` before \`start\`, or a timeframe longer than ${MAX_TIMEFRAME_YEARS} years, is 422.`;
