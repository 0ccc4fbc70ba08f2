// The OpenAPIHono that every route module registers its routes on: validation failures of a route's
// schemas (path parameters, query and body) answer in our vocabulary (validationHook).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ApiEnv } from './env.js';
import { validationHook } from './validation.js';

export class ApiRoutes extends OpenAPIHono<ApiEnv> {
  constructor() {
    super({ defaultHook: validationHook });
  }
}
