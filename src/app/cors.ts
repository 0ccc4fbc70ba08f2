// CORS and caching of the API's responses.
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { ApiEnv } from '../http/env.js';
import { requestHeader } from '../http/request-headers.js';
import { addResponseHeader } from '../http/response-headers.js';

const corsHeaders = cors({
  origin: '*',
  maxAge: 600,
  exposeHeaders: [
    'RateLimit',
    'RateLimit-Policy',
    'Retry-After',
    'Location',
    'X-Request-Id',
    'ETag',
    'Idempotent-Replayed',
    'Idempotent-Body',
  ],
});

/**
 * No cache may keep an API response: it holds one user's data, chosen by a header that caches do not
 * key on (X-API-Key), so a shared cache could hand it to anyone asking for the same URL. Kept by no
 * cache, a response without CORS fields cannot reach a browser's cross-origin request either, so
 * no `Vary: Origin` is needed. (A route's own Cache-Control, as on the docs' assets, wins.)
 * Keys are headers, not cookies, so any origin may call the API (never with credentials). Only
 * requests with an Origin pay for CORS; a plain OPTIONS (not a preflight) goes on to the 405 of the
 * route guard.
 */
export const apiCors: MiddlewareHandler<ApiEnv> = async (c, next) => {
  addResponseHeader(c, 'cache-control', 'no-store');
  const preflight = c.req.method === 'OPTIONS' && requestHeader(c, 'access-control-request-method') !== undefined;
  if (requestHeader(c, 'origin') === undefined || (c.req.method === 'OPTIONS' && !preflight)) return next();
  const preflightResponse = await corsHeaders(c, next);
  if (preflightResponse) c.res = preflightResponse;
};
