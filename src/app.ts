// Builds the Hono app: the order of the checks (docs/api.md), the modules, the OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { KeyResolver } from './accounts/key-resolver.js';
import { AccessMemory } from './access/access-memory.js';
import { notFoundPage, pageRoutes } from './accounts/pages/routes.js';
import { accountRoutes } from './accounts/routes.js';
import { SignInThrottle } from './accounts/sign-in-throttle.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { addAnswerHeader, writeAnswerHeaders } from './http/answer-headers.js';
import { authenticate } from './http/auth.js';
import type { AppDeps, AppEnv, Check } from './http/context.js';
import { docsRoutes } from './http/docs.js';
import { healthRoutes } from './http/health.js';
import { idempotency } from './http/idempotency.js';
import { describeIdempotency } from './http/idempotency-description.js';
import { describeDescriptionPaths } from './http/description-paths.js';
import { errorPageRoutes } from './http/error-pages.js';
import { bodyGuards, HEALTH_PATH, isMachinePath, isUnder, jsonShapeGuard, nothingServedAt, routeGuard } from './http/guards.js';
import { ApiError, newErrorId, problemResponse, unauthorized } from './http/problem.js';
import { DomainError } from './domain-errors.js';
import { requestHeader } from './http/request-headers.js';
import { requestLog } from './http/request-log.js';
import { rateLimit } from './http/rate-limit/middleware.js';
import { openRateLimitStore } from './http/rate-limit/open-store.js';
import { ratePolicies, userCeilings } from './http/rate-limit/policies.js';
import type { RateLimitStore } from './http/rate-limit/store.js';
import { validationHook } from './http/validation.js';
import { createLogger } from './logger.js';
import { farmRoutes } from './resources/farms/routes.js';
import { fieldRoutes } from './resources/fields/routes.js';
import { cultivationRoutes } from './resources/cultivations/routes.js';
import { harvestRoutes } from './resources/harvests/routes.js';
import { soilAnalysisRoutes } from './resources/soil-analyses/routes.js';
import { currentSoilDataRoutes } from './resources/current-soil-data/routes.js';
import { fertilizerRoutes } from './resources/fertilizers/routes.js';
import { applicationRoutes } from './resources/fertilizer-applications/routes.js';
import { derogationRoutes } from './resources/derogations/routes.js';
import { grazingIntentionRoutes } from './resources/grazing-intentions/routes.js';
import { organicCertificationRoutes } from './resources/organic-certifications/routes.js';
import { catalogueRoutes } from './catalogues/routes.js';
import { calculationRoutes } from './calculations/routes.js';
import { organicMatterBalanceRoutes } from './calculations/organic-matter-balance/routes.js';
import { farmAccessRoutes } from './resources/farm-access/routes.js';
import { auditRoutes } from './resources/audit/routes.js';
import { changeRoutes } from './resources/changes/routes.js';

/** The description and its page: no key. */
const isPublicApiPath = (path: string) => path === '/api/openapi.json' || isUnder(path, '/api/docs');
/** Key management also takes the session cookie. */
const isSessionApiPath = (path: string) => isUnder(path, '/api/keys');
const corsHeaders = cors({
  origin: '*',
  maxAge: 600,
  exposeHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'Location', 'X-Request-Id', 'ETag', 'Idempotent-Replayed'],
});

/**
 * No cache may keep an API answer: it holds one user's data, chosen by a header that caches do not
 * key on (X-API-Key), so a shared cache could hand it to anyone asking for the same URL. Kept by no
 * cache, an answer without CORS fields cannot reach a browser's cross-origin request either, so
 * no `Vary: Origin` is needed. (A route's own Cache-Control, as on the docs' assets, wins.)
 * CORS: keys are headers, not cookies, so any origin may call the API (never with credentials).
 * Browsers send Origin on every cross-origin request; only those pay for CORS (hono/cors costs
 * ~8 µs a request). A plain OPTIONS (not a preflight) goes on to the 405 of the route guard.
 */
const apiCors: Check = (c, next) => {
  addAnswerHeader(c, 'cache-control', 'no-store');
  const preflight = c.req.method === 'OPTIONS' && requestHeader(c, 'access-control-request-method') !== undefined;
  if (requestHeader(c, 'origin') !== undefined && (preflight || c.req.method !== 'OPTIONS')) {
    return corsHeaders(c, next).then((preflightAnswer) => {
      if (preflightAnswer) c.res = preflightAnswer;
    });
  }
  return next();
};

/** Errors thrown by Hono itself (malformed JSON, media type, body limit) in our vocabulary. */
function fromHttpException(error: HTTPException): ApiError {
  switch (error.status) {
    case 400:
      return new ApiError('validation-failed', 'The request body is not valid JSON.', {
        errors: [{ field: 'body', message: 'is not valid JSON' }],
      });
    case 413:
      return new ApiError('payload-too-large', 'The request body is larger than this endpoint takes.');
    case 415:
      return new ApiError('unsupported-media-type', 'The request body must be application/json.');
    default:
      return new ApiError('internal-error', 'An unexpected error occurred.');
  }
}

/** The stack, and the chain of causes (a database error arrives wrapped by drizzle, its reason in `cause`). */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(current instanceof Error ? (depth === 0 ? String(current.stack) : `caused by: ${current.message}`) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join('\n');
}

export function createDeps(config: Config, database: DatabaseHandle, rateLimits: RateLimitStore = openRateLimitStore(config)): AppDeps {
  const access = new AccessMemory();
  return { config, database, access, keys: new KeyResolver(database, access), rateLimits, log: createLogger(config.logLevel) };
}

export function createApp(deps: AppDeps) {
  const errorsUrl = `${deps.config.publicUrl}/errors`;
  const respond = (c: Context, error: ApiError) => problemResponse(c, error, errorsUrl);
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  const answerError = (error: unknown, c: Context): Response => {
    if (error instanceof ApiError) return respond(c, error);
    if (error instanceof DomainError)
      return respond(c, error.code === 'unauthorized' ? unauthorized() : new ApiError(error.code, error.detail));
    if (error instanceof HTTPException && error.status !== 500) return respond(c, fromHttpException(error));
    const errorId = newErrorId();
    deps.log.error(
      { error_id: errorId, request_id: c.get('requestId'), method: c.req.method, path: c.req.path, error: describeError(error) },
      'request failed',
    );
    return problemResponse(
      c,
      new ApiError('internal-error', 'An unexpected error occurred. Quote the error_id when you report it.'),
      errorsUrl,
      errorId,
    );
  };
  app.onError(answerError);
  app.use(requestLog(deps.config.logRequests ? deps.log : null));
  /** Answers an error of the checks after it here, so that the ones before it (CORS, answer headers) see the answer. */
  const answeringErrors: Check = (c, next) => {
    try {
      return next().catch((error: unknown) => {
        c.res = answerError(error, c);
      });
    } catch (error) {
      c.res = answerError(error, c);
      return Promise.resolve();
    }
  };

  const guardRoute = routeGuard(app);
  const apiAuth = authenticate(deps, respond, { allowSession: false });
  const keyManagementAuth = authenticate(deps, respond, { allowSession: true });
  const { rateLimits, rateLimitUserFactor } = deps.config;
  const limitRequests = rateLimit(deps.rateLimits, ratePolicies(rateLimits), respond, userCeilings(rateLimits, rateLimitUserFactor));
  const idempotent = idempotency(deps);
  // The key, then its rate limit: every API request but the public ones needs both. A POST's
  // Idempotency-Key is looked up last, once the request is known to be well formed.
  const keyAndLimit: Check = (c, next) => {
    const path = c.req.path;
    if (isPublicApiPath(path)) return next();
    return (isSessionApiPath(path) ? keyManagementAuth : apiAuth)(c, () =>
      limitRequests(c, () => jsonShapeGuard(c, () => idempotent(c, next))),
    );
  };
  // The order of the API's checks: answer fields, CORS (which answers browser preflights before the rest),
  // errors as problem+json; then path 404 → method 405 → size 413 → type 415 → key 400/401 → rate limit 429
  // → the body's shape 400 → Idempotency-Key (400, 409, 422, or the stored answer) → the route's schemas → access. One middleware that calls the checks in turn.
  app.use('/api/*', (c, next) =>
    writeAnswerHeaders(c, () => apiCors(c, () => answeringErrors(c, () => guardRoute(c, () => bodyGuards(c, () => keyAndLimit(c, next)))))),
  );
  // Programs (/auth, /health) get problem+json; people get a page. (/api paths no route serves are
  // answered by the route guard above.)
  app.notFound((c) => (isMachinePath(c.req.path) ? respond(c, nothingServedAt(c.req.path)) : notFoundPage(c)));
  app.use('/auth/*', (c, next) => writeAnswerHeaders(c, () => guardRoute(c, () => bodyGuards(c, () => jsonShapeGuard(c, next)))));
  // Any other method than GET or HEAD: 405 with Allow, as on the API.
  app.use(`${HEALTH_PATH}/*`, (c, next) => writeAnswerHeaders(c, () => guardRoute(c, next)));

  app.route('/', healthRoutes(deps, respond));
  app.route('/', docsRoutes(deps.config.publicUrl));
  app.route('/', errorPageRoutes(respond));
  // One throttle for the JSON sign-in and the sign-in page, so neither is a way around the other.
  const signInThrottle = new SignInThrottle();
  app.route('/', accountRoutes(deps, signInThrottle));
  app.route('/', pageRoutes(deps, signInThrottle));
  app.route('/', farmRoutes(deps));
  for (const routes of [
    fieldRoutes,
    cultivationRoutes,
    harvestRoutes,
    soilAnalysisRoutes,
    currentSoilDataRoutes,
    fertilizerRoutes,
    applicationRoutes,
    derogationRoutes,
    grazingIntentionRoutes,
    organicCertificationRoutes,
    farmAccessRoutes,
    auditRoutes,
    changeRoutes,
    calculationRoutes,
    organicMatterBalanceRoutes,
  ]) {
    app.route('/', routes(deps));
  }
  app.route('/', catalogueRoutes());

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'BearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Authorization: Bearer <API key>',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'SessionCookie', { type: 'apiKey', in: 'cookie', name: 'akker_session' });
  describeDescriptionPaths(app.openAPIRegistry);
  const documentConfig = describeApi(deps.config.publicUrl);
  const description = new Hono<AppEnv>();
  // What app.doc31 serves, mounted like every other /api route. Built on the first request, when every
  // route is registered, and kept: building it walks every schema (a second or more under load).
  let document: string | undefined;
  description.get('/api/openapi.json', (c) => {
    document ??= JSON.stringify(describeIdempotency(app.getOpenAPI31Document(documentConfig)));
    return c.body(document, 200, { 'content-type': 'application/json' });
  });
  app.route('/', description);
  return app;
}

function describeApi(publicUrl: string): Parameters<OpenAPIHono['getOpenAPI31Document']>[0] {
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

export type App = ReturnType<typeof createApp>;
