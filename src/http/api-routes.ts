// The OpenAPIHono that every route module registers its routes on.
import { OpenAPIHono, z, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import { rejectNul, validationHook } from './validation.js';

/** Path parameters that are strings without further checks: whatever text the router matched is valid. */
function plainStringParams(params: unknown): boolean {
  return (
    params instanceof z.ZodObject &&
    Object.values(params.shape).every((field) => field instanceof z.ZodString && !field._zod.def.checks?.length)
  );
}

type Register = OpenAPIHono<AppEnv>['openapi'];
type AnyHandler = (c: Context<AppEnv>, next: () => Promise<void>) => unknown;

/**
 * Validation failures answer in our vocabulary (validationHook). Path parameters that are plain strings
 * skip zod's validator, which would only copy them: that middleware layer (an async parse and a promise)
 * is a measurable part of a hot read. Their description in the OpenAPI document stays as declared, and
 * the handler reads them with `c.req.valid('param')` all the same.
 */
export class ApiRoutes extends OpenAPIHono<AppEnv> {
  constructor() {
    super({ defaultHook: validationHook });
    const register = this.openapi;
    this.openapi = ((config: RouteConfig & { hide?: boolean }, handler: AnyHandler, hook?: unknown) => {
      if (!plainStringParams(config.request?.params)) return register(config, handler as never, hook as never);
      const { middleware, hide, ...route } = config;
      if (!hide) this.openAPIRegistry.registerPath(route);
      const { params: _documented, ...request } = route.request!;
      // Read by name: Hono's c.req.param() lists a route's names with Object.keys, in V8's runtime, each time.
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      const withParams: AnyHandler = (c, next) => {
        const params: Record<string, string> = {};
        for (const name of names) params[name] = c.req.param(name)!;
        // The route guard refuses a path holding U+0000 before this; the rule of validationHook holds here all the same.
        for (const name of names) if (params[name]!.includes('\u0000')) rejectNul(params, 'param');
        c.req.addValidatedData('param', params);
        return handler(c, next);
      };
      return register({ ...route, middleware, hide: true, request }, withParams as never, hook as never);
    }) as Register;
  }
}
