// Preconditions are honoured or refused, never ignored: If-Match or If-None-Match sent to an operation
// that does not take it (a PUT, a POST, a DELETE of a key, a PATCH with If-None-Match) is 400. Which
// operation takes which is read from the OpenAPI definitions of the app's own routes, so it cannot drift.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { matchedOperation } from './guards.js';
import type { ApiEnv } from '../http/env.js';
import { validationFailed } from '../http/problem.js';
import { requestHeader } from '../http/request-headers.js';

/** The header fields of a precondition: as a problem names them, and as they are read (lower case). */
const PRECONDITIONS = [
  { field: 'If-Match', name: 'if-match' },
  { field: 'If-None-Match', name: 'if-none-match' },
] as const;

/** `METHOD /path/:param header` for every header precondition a route declares. */
function declaredPreconditions(app: OpenAPIHono<ApiEnv>): Set<string> {
  const taken = new Set<string>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { method, path, parameters = [] } = definition.route;
    const honoPath = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const parameter of parameters) {
      if ('in' in parameter && parameter.in === 'header') taken.add(`${method.toUpperCase()} ${honoPath} ${parameter.name.toLowerCase()}`);
    }
  }
  return taken;
}

export function preconditionGuard(app: OpenAPIHono<ApiEnv>): MiddlewareHandler<ApiEnv> {
  let taken: Set<string> | undefined;
  return (c, next) => {
    const sent = PRECONDITIONS.filter(({ name }) => requestHeader(c, name) !== undefined);
    if (sent.length === 0) return next();
    taken ??= declaredPreconditions(app);
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    const route = matchedOperation(c, method);
    const operation = `${method} ${route?.path ?? c.req.path}`;
    const refused = sent.filter(({ name }) => !taken?.has(`${operation} ${name}`));
    if (refused.length > 0) {
      throw validationFailed(
        refused.map(({ field }) => ({ field, message: `is not taken by ${c.req.method} ${c.req.path}; send the request without it` })),
      );
    }
    return next();
  };
}
