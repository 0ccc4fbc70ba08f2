// The OpenAPI document lists the endpoints that describe the API too: the document itself, its page,
// and the pages of the error codes. None needs a key.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { errorResponses } from '../http/openapi.js';
import { errorCodes } from '../http/problem.js';

const tags = ['Description'];

const errorCodeSchema = z
  .object({
    code: z.string().openapi({ description: 'The error code, the last segment of a problem `type`.', example: 'validation-failed' }),
    status: z.number().int().openapi({ description: 'The HTTP status answered with this code.', example: 400 }),
    title: z.string().openapi({ description: 'The `title` of problems with this code.', example: 'Validation Failed' }),
    description: z.string().openapi({ description: 'What the code means and what a client can do about it.' }),
  })
  .openapi('ErrorCode');

export function describeDocumentPaths(registry: OpenAPIHono['openAPIRegistry']): void {
  registry.registerPath({
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    tags,
    summary: 'This OpenAPI 3.1 document',
    security: [],
    responses: {
      200: {
        description: 'The OpenAPI document, made from the schemas the server validates with.',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
      ...errorResponses(),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/docs',
    operationId: 'getApiReference',
    tags,
    summary: 'The API reference page (Swagger UI), served with all its assets by this server',
    security: [],
    responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } }, ...errorResponses() },
  });
  registry.registerPath({
    method: 'get',
    path: '/errors/{code}',
    operationId: 'getErrorCode',
    tags,
    summary: 'What an error code means: the page a problem `type` leads to',
    description: 'HTML by default; the members below for `Accept: application/json`.',
    security: [],
    request: {
      params: z.object({
        code: z.string().openapi({ param: { name: 'code', in: 'path' }, enum: Object.keys(errorCodes), description: 'An error code.' }),
      }),
    },
    responses: {
      200: {
        description: 'The error code.',
        content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: errorCodeSchema } },
      },
      ...errorResponses('not-found'),
    },
  });
}
