// /api/openapi.json: the OpenAPI document of every route the app registered, with the security
// schemes, the describing endpoints and Idempotency-Key added.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import type { ApiEnv } from '../http/env.js';
import { describeIdempotency } from './idempotency-openapi.js';
import { describeDocumentPaths } from './openapi-document-paths.js';

function documentConfig(publicUrl: string): Parameters<OpenAPIHono['getOpenAPI31Document']>[0] {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Akker',
      version: '0.1.0',
      description:
        'REST API for agricultural farm data. Authenticate with an API key in `X-API-Key` or `Authorization: Bearer` (exactly one). Errors are application/problem+json. ' +
        'Rate limits per key on a rolling minute: general (GET, HEAD and key management), write (other POST, PUT, PATCH, DELETE) and calculation; every authenticated answer carries `RateLimit` and `RateLimit-Policy`, and a 429 `Retry-After`.',
    },
    servers: [{ url: publicUrl }],
  };
}

/** The route of the document of `app`; mount it after every other route. */
export function openApiDocumentRoute(app: OpenAPIHono<ApiEnv>, publicUrl: string): Hono<ApiEnv> {
  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'BearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Authorization: Bearer <API key>',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'SessionCookie', { type: 'apiKey', in: 'cookie', name: 'akker_session' });
  describeDocumentPaths(app.openAPIRegistry);
  const config = documentConfig(publicUrl);
  const route = new Hono<ApiEnv>();
  // Built on the first request, when every route is registered, and kept: building it walks every
  // schema (a second or more under load).
  let document: string | undefined;
  route.get('/api/openapi.json', (c) => {
    document ??= JSON.stringify(describeIdempotency(app.getOpenAPI31Document(config)));
    return c.body(document, 200, { 'content-type': 'application/json' });
  });
  return route;
}
