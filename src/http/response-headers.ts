// Header fields that middleware adds to whatever response a request ends with (X-Request-Id, RateLimit, Cache-Control).
// The routes' responses are built with them (`apiResponse`, and `json` / `noContent` in http/responses.ts)
// as one plain object, the cheapest way to Node's writeHead (docs/performance.md);
// `writeResponseHeaders` writes them onto any other response.
import type { Context } from 'hono';
import { ResponseHeaderFields, type ResponseHeaderName } from './response-header-fields.js';
import type { ApiEnv } from './env.js';
import type { MiddlewareHandler } from 'hono';

/** Adds a field; a field added again keeps its last value. */
export function addResponseHeader(c: Context<ApiEnv>, name: ResponseHeaderName, value: string): void {
  let added = c.get('responseHeaders');
  if (!added) c.set('responseHeaders', (added = new ResponseHeaderFields()));
  if (name === 'cache-control') added.cacheControl = value;
  else if (name === 'ratelimit-policy') added.rateLimitPolicy = value;
  else added.rateLimit = value;
}

/**
 * The response `body` of type `contentType` with the fields added so far and its own header fields `own`
 * (lower-case names), which win over a field of the same name.
 */
export function apiResponse(
  c: Context,
  body: string | null,
  status: number,
  contentType: string | undefined,
  own?: Record<string, string>,
): Response {
  const added = (c as Context<ApiEnv>).get('responseHeaders');
  // Built from an empty literal, not cloned (docs/performance.md).
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (added !== undefined) {
    if (added.requestId !== undefined) headers['x-request-id'] = added.requestId;
    if (added.cacheControl !== undefined) headers['cache-control'] = added.cacheControl;
    if (added.rateLimitPolicy !== undefined) headers['ratelimit-policy'] = added.rateLimitPolicy;
    if (added.rateLimit !== undefined) headers.ratelimit = added.rateLimit;
  }
  if (contentType !== undefined) headers['content-type'] = contentType;
  for (const name in own) {
    const value = own[name];
    if (value !== undefined) headers[name] = value;
  }
  const response = new Response(body, { status, headers });
  if (added) added.carriedBy = response;
  return response;
}

/**
 * The outermost middleware of the API (and of /auth and /health, which add no fields of their own but
 * X-Content-Type-Options): writes the fields onto a response not built with them. A field the response
 * has itself keeps the response's value.
 */
export const writeResponseHeaders: MiddlewareHandler<ApiEnv> = (c, next) => next().then(() => writeOntoResponse(c));

/** The fields of a request that added none: X-Content-Type-Options alone. */
const NONE_ADDED = new ResponseHeaderFields();

function writeOntoResponse(c: Context<ApiEnv>): void {
  const added = c.get('responseHeaders') ?? NONE_ADDED;
  if (added.carriedBy === c.res) return;
  const headers = c.res.headers;
  for (const [name, value] of added.entries()) if (!headers.has(name)) headers.set(name, value);
}
