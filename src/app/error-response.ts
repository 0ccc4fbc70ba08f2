// The one error path of the app (app.onError): whatever a middleware or a route throws becomes
// problem+json; anything unforeseen is a 500 with an error_id, logged with its stack and causes.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describeError } from '../core/describe-error.js';
import { DomainError } from '../core/domain-errors.js';
import type { Logger } from '../core/logger.js';
import type { ApiEnv } from '../http/env.js';
import { ApiError, newErrorId, problemResponse, unauthorized } from '../http/problem.js';

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

/** The problem+json response of `error`; `errorsUrl` is where the `type` URLs lead; `sink.log` takes the 500s. */
export function errorResponder(errorsUrl: string, sink: { log: Logger }) {
  const respond = (c: Context, error: ApiError) => problemResponse(c, error, errorsUrl);
  const errorResponse = (error: unknown, c: Context<ApiEnv>): Response => {
    if (error instanceof ApiError) return respond(c, error);
    if (error instanceof DomainError)
      return respond(c, error.code === 'unauthorized' ? unauthorized() : new ApiError(error.code, error.detail));
    if (error instanceof HTTPException && error.status !== 500) return respond(c, fromHttpException(error));
    const errorId = newErrorId();
    sink.log.error(
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
  return { respond, errorResponse };
}
