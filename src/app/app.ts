// The composition root: builds the Hono app from its parts, the middleware of each family of paths in
// order (docs/architecture.md), the route modules and the OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi';
import { KeyResolver } from '../accounts/key-resolver.js';
import { AccessMemory } from '../access/access-memory.js';
import { notFoundPage, pageRoutes, type FarmChoicesOf } from '../accounts/pages/routes.js';
import { sessionPrincipal } from '../core/principal.js';
import { listFarms } from '../resources/farms/store.js';
import { accountRoutes } from '../accounts/routes.js';
import { SignInThrottle } from '../accounts/sign-in-throttle.js';
import { doseRoutes } from '../calculations/dose/routes.js';
import { nitrogenBalanceRoutes } from '../calculations/nitrogen-balance/routes.js';
import { normsRoutes } from '../calculations/norms/routes.js';
import { organicMatterBalanceRoutes } from '../calculations/organic-matter-balance/routes.js';
import { portfolioRoutes } from '../calculations/portfolio/routes.js';
import type { Config } from '../core/config.js';
import { createLogger, type Logger } from '../core/logger.js';
import type { DatabaseHandle } from '../db/client.js';
import type { ApiEnv } from '../http/env.js';
import { writeResponseHeaders } from '../http/response-headers.js';
import { validationHook } from '../http/validation.js';
import { openRateLimitWindows } from '../rate-limit/open-windows.js';
import { ratePolicies, userCeilings } from '../rate-limit/policies.js';
import type { RateLimitWindows } from '../rate-limit/windows.js';
import { auditRoutes } from '../resources/audit/routes.js';
import { catalogueRoutes } from '../resources/catalogues/routes.js';
import { changeRoutes } from '../resources/changes/routes.js';
import { cultivationRoutes } from '../resources/cultivations/routes.js';
import { derogationRoutes } from '../resources/derogations/routes.js';
import { farmAccessRoutes } from '../resources/farm-access/routes.js';
import { farmRoutes } from '../resources/farms/routes.js';
import { applicationRoutes } from '../resources/fertilizer-applications/routes.js';
import { fertilizerRoutes } from '../resources/fertilizers/routes.js';
import { fieldRoutes } from '../resources/fields/routes.js';
import { grazingIntentionRoutes } from '../resources/grazing-intentions/routes.js';
import { harvestRoutes } from '../resources/harvests/routes.js';
import { organisationPageRoutes } from '../resources/organisations/page-routes.js';
import { organisationRoutes } from '../resources/organisations/routes.js';
import { organicCertificationRoutes } from '../resources/organic-certifications/routes.js';
import { soilAnalysisRoutes } from '../resources/soil-analyses/routes.js';
import { currentSoilDataRoutes } from '../calculations/current-soil-data/routes.js';
import { docsRoutes } from './api-docs.js';
import { authenticate } from './authentication.js';
import { apiCors } from './cors.js';
import type { AppDeps } from './deps.js';
import { errorPageRoutes } from './error-pages.js';
import { errorResponder } from './error-response.js';
import {
  bodyGuards,
  HEALTH_PATH,
  isMachinePath,
  isUnder,
  jsonShapeGuard,
  METHODS_WITH_BODY,
  nothingServedAt,
  routeGuard,
} from './guards.js';
import { healthRoutes } from './health.js';
import { idempotency } from './idempotency.js';
import { openApiDocumentRoute } from './openapi-document.js';
import { preconditionGuard } from './precondition-guard.js';
import { rateLimit } from './rate-limit.js';
import { requestLog } from './request-log.js';

/** The document and its page: no key. */
const isPublicApiPath = (path: string) => path === '/api/openapi.json' || isUnder(path, '/api/docs');
/** Key management also takes the session cookie. */
const isSessionApiPath = (path: string) => isUnder(path, '/api/keys');

/** The farms a user reaches, as the API lists them to the user's session, for the API Keys page to limit a key to. */
const farmChoicesOf =
  (database: DatabaseHandle): FarmChoicesOf =>
  (userId, limit) =>
    listFarms(database, sessionPrincipal(userId), { limit, offset: 0 });

/** `given`: the rate limit's windows and the log, when the caller has them already (else opened from `config`). */
export function createDeps(config: Config, database: DatabaseHandle, given: { rateLimits?: RateLimitWindows; log?: Logger } = {}): AppDeps {
  const access = new AccessMemory();
  const { log = createLogger(config.logLevel) } = given;
  const { rateLimits = openRateLimitWindows(config, log) } = given;
  return { config, database, access, keys: new KeyResolver(database, access, log), rateLimits, log };
}

export function createApp(deps: AppDeps) {
  const { config, database } = deps;
  const { respond, errorResponse } = errorResponder(`${config.publicUrl}/errors`, deps);
  const app = new OpenAPIHono<ApiEnv>({ defaultHook: validationHook });
  app.onError(errorResponse);
  app.notFound((c) => (isMachinePath(c.req.path) ? respond(c, nothingServedAt(c.req.path)) : notFoundPage(c)));

  const guardRoute = routeGuard(app);
  app.use(requestLog(config.logRequests ? deps.log : null));
  // The API's checks in order: response header fields and CORS wrap everything after them, errors
  // included; then path 404 → method 405 → size 413 → type 415 → key 400/401 → rate limit 429 → the
  // body's shape 400 → a precondition the operation does not take 400 → Idempotency-Key (400, 409, 422, or the stored response) → the route's schemas → access.
  // A check of the body is registered for the methods that carry one: a read does not pass through it.
  app.use('/api/*', writeResponseHeaders, apiCors, guardRoute);
  app.on(METHODS_WITH_BODY, '/api/*', bodyGuards);
  app.use(
    '/api/*',
    authenticate(deps, { isPublic: isPublicApiPath, allowsSession: isSessionApiPath }),
    rateLimit(deps.rateLimits, ratePolicies(config.rateLimits), userCeilings(config.rateLimits, config.rateLimitUserFactor)),
  );
  app.on(METHODS_WITH_BODY, '/api/*', jsonShapeGuard);
  app.use('/api/*', preconditionGuard(app));
  app.on('POST', '/api/*', idempotency(deps));
  app.use('/auth/*', writeResponseHeaders, guardRoute);
  app.on(METHODS_WITH_BODY, '/auth/*', bodyGuards, jsonShapeGuard);
  // Any other method than GET or HEAD: 405 with Allow, as on the API.
  app.use(`${HEALTH_PATH}/*`, writeResponseHeaders, guardRoute);

  app.route('/', healthRoutes(deps, respond));
  app.route('/', docsRoutes(config.publicUrl));
  app.route('/', errorPageRoutes(respond));
  // One throttle for the JSON sign-in and the sign-in page, so neither is a way around the other.
  const signInThrottle = new SignInThrottle();
  app.route('/', accountRoutes(deps, signInThrottle));
  app.route('/', pageRoutes(deps, signInThrottle, farmChoicesOf(database)));
  app.route('/', organisationPageRoutes(deps));
  for (const routes of [
    farmRoutes(deps),
    fieldRoutes(database),
    cultivationRoutes(database),
    harvestRoutes(database),
    soilAnalysisRoutes(database),
    currentSoilDataRoutes(database),
    fertilizerRoutes(database),
    applicationRoutes(database),
    derogationRoutes(database),
    grazingIntentionRoutes(database),
    organicCertificationRoutes(database),
    farmAccessRoutes(database),
    organisationRoutes(database),
    auditRoutes(database),
    changeRoutes(database),
    nitrogenBalanceRoutes(config, database),
    doseRoutes(database),
    normsRoutes(database),
    organicMatterBalanceRoutes(database),
    portfolioRoutes(config, database, deps.log),
    catalogueRoutes(),
  ]) {
    app.route('/', routes);
  }
  app.route('/', openApiDocumentRoute(app, config.publicUrl));
  return app;
}

export type App = ReturnType<typeof createApp>;
