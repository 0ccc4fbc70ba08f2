// Checks that run before authentication, in the documented order:
// unknown path 404 → method 405 → body over the route's size 413 → content type 415.
// And the shape of a JSON body, which is request validation (400) and so runs after the key.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import { matchedRoutes } from 'hono/route';
import { bodyBudgetOf, describeBytes, WRITE_BUDGET, type BodyBudget } from '../http/body-budget.js';
import { bodyFits, declaredLength } from '../http/body-limit.js';
import type { ApiEnv } from '../http/env.js';
import { exceededShape } from '../http/json-shape.js';
import { requestBodyText } from '../http/request-body.js';
import { ApiError, validationFailed } from '../http/problem.js';

/** The health check, asked by load balancers and monitors. */
export const HEALTH_PATH = '/health';

/**
 * The paths for programs, /api and /auth and everything below them, and the health check: their routes
 * are all known to the route guard, and their errors are problem+json (people's pages get HTML).
 */
export const isMachinePath = (path: string) => isUnder(path, '/api') || isUnder(path, '/auth') || isUnder(path, HEALTH_PATH);

/** `path` is `prefix` or below it. String tests, not a regular expression: this runs on every request. */
export const isUnder = (path: string, prefix: string) =>
  path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 47); // '/'

/** Middleware is registered on a path ending in `/*`; an operation's path has none. */
const isOperation = (route: RouterRoute) => !route.path.endsWith('/*');

/** The operation of `method` the router matched for this request, if any (the last one: it runs after any middleware). */
export function matchedOperation(c: Context, method: string): RouterRoute | undefined {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i];
    if (route !== undefined && route.method === method && isOperation(route)) return route;
  }
  return undefined;
}

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

function compileRoutePath(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

function knownPaths(app: Pick<Hono, 'routes'>): KnownPath[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || !isOperation(route) || !isMachinePath(route.path)) continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ pattern: compileRoutePath(path), methods }));
}

/**
 * For a machine path (where app.ts runs it): 404 for a path no route serves and 405 (with `Allow`) for
 * a known path asked with another method, before any other work. The table is read from the app's own
 * routes on the first request, so it cannot drift from them.
 */
export function routeGuard(app: Pick<Hono, 'routes'>): MiddlewareHandler<ApiEnv> {
  let table: KnownPath[] | undefined;
  // Not async: on the common path it only hands on next()'s promise (a throw is answered all the same).
  return (c, next) => {
    const path = c.req.path;
    refuseNul(path);
    // The router has matched already: a route of this method means the path is known (the common case).
    if (matchedOperation(c, c.req.method) !== undefined) return next();
    table ??= knownPaths(app);
    const methods = new Set<string>();
    for (const known of table) if (known.pattern.test(path)) for (const m of known.methods) methods.add(m);
    if (methods.size === 0) throw nothingServedAt(path);
    if (!methods.has(c.req.method)) {
      const allow = [...methods].sort().join(', ');
      throw new ApiError('method-not-allowed', `${c.req.method} is not served at ${path}; use ${allow}.`, {
        headers: { allow },
      });
    }
    return next();
  };
}

/** The 404 of a path no route serves. */
export const nothingServedAt = (path: string) => new ApiError('not-found', `No resource is served at ${path}.`);

/**
 * 404 for a path holding U+0000, which a route's pattern may match: no identifier holds it (PostgreSQL
 * cannot even compare text with it), so no resource is there.
 */
function refuseNul(path: string): void {
  if (path.includes('\u0000')) throw nothingServedAt(path);
}

/** The budget of the route this request matched (every write route is matched by then: the route guard ran). */
function budgetOf(c: Context): BodyBudget {
  const route = matchedOperation(c, c.req.method);
  return route === undefined ? WRITE_BUDGET : bodyBudgetOf(c.req.method, route.path);
}

/** The 413 of a body over `budget`, counted on the bytes actually received (Content-Length or chunked). */
const payloadTooLarge = (budget: BodyBudget) =>
  new ApiError(
    'payload-too-large',
    `The request body is larger than ${budget.maxBytes} bytes (${describeBytes(budget.maxBytes)}), the most this operation accepts.`,
  );

// The same rule as @hono/zod-openapi's media type check behind it (no space before `;`), so that
// a Content-Type is accepted or refused in one place, before the key is checked.
const JSON_MEDIA_TYPE = /^application\/([a-z.-]+\+)?json(;\s*[a-z0-9-]+=[^;]+)*$/i;

// The declared length first: touching the body stream of a body left unread would stall the connection
// (see body-limit.ts). Past bodyFits, a streamed body is already buffered.
async function hasBody(c: Context): Promise<boolean> {
  const declared = declaredLength(c);
  if (declared !== undefined) return declared > 0;
  if (c.req.raw.body === null) return false;
  return (await c.req.arrayBuffer()).byteLength > 0;
}

/**
 * The methods whose requests may carry a body: the body's checks run on these only (app.ts). A read
 * never reaches them, which also spares it the cost of building a full fetch Request (what touching
 * `c.req.raw.body` does on @hono/node-server).
 */
export const METHODS_WITH_BODY = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** 413 for a body over the route's size, then 415 for a Content-Type that is not JSON or a body without one. */
export const bodyGuards: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const budget = budgetOf(c);
  if (!(await bodyFits(c, budget.maxBytes))) throw payloadTooLarge(budget);
  await checkContentType(c);
  await next();
};

/** 415 for a Content-Type that is not JSON, or for a body without one. A request without a body passes. */
async function checkContentType(c: Context): Promise<void> {
  const contentType = c.req.header('content-type');
  if (contentType === undefined ? await hasBody(c) : !JSON_MEDIA_TYPE.test(contentType.trim())) {
    throw new ApiError(
      'unsupported-media-type',
      contentType === undefined
        ? 'The request has a body but no Content-Type; send application/json.'
        : `Content-Type ${contentType} is not accepted; send application/json.`,
    );
  }
}

/**
 * 400 for a JSON body that nests deeper or holds more values than the route's budget, found by a
 * pass over the text before anything parses it. The text is read here once: the validator's
 * `c.req.json()` parses the same cached text.
 */
export const jsonShapeGuard: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (c.req.raw.body !== null) {
    const exceeded = exceededShape(await requestBodyText(c), budgetOf(c));
    if (exceeded !== undefined) throw validationFailed([{ field: 'body', message: exceeded }]);
  }
  await next();
};
