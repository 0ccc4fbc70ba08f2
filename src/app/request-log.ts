// One log line per request, and the request's id: taken from the client's X-Request-Id when it is
// well formed (so that a proxy's or a client's id follows the request into our log), else made here;
// returned on every response. The line names the caller by user and key id, never by key, cookie or body.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../core/logger.js';
import type { ApiEnv } from '../http/env.js';
import { requestHeader } from '../http/request-headers.js';
import { ResponseHeaderFields } from '../http/response-header-fields.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id; a client's own when it is 1–128 letters, digits and `._:-`. */
function requestId(given: string | undefined): string {
  return given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
}

/** `log`: where the lines go; null writes none (LOG_REQUESTS=false), the id is still returned. */
export function requestLog(log: Logger | null): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const started = performance.now();
    const id = requestId(requestHeader(c, 'x-request-id'));
    c.set('requestId', id);
    const fields = new ResponseHeaderFields();
    fields.requestId = id;
    c.set('responseHeaders', fields);
    await next();
    // Onto a response built without the field.
    if (fields.carriedBy !== c.res) c.res.headers.set('x-request-id', id);
    if (log === null) return;
    const principal = c.get('principal');
    log.info(
      {
        request_id: id,
        method: c.req.method,
        // The route the request matched, whichever step answered it.
        route: routePath(c, -1),
        status: c.res.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        user_id: principal?.userId,
        key_id: principal?.keyId ?? undefined,
        error_id: c.get('errorId'),
      },
      'request',
    );
  };
}
