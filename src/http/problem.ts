// problem+json (RFC 9457) with exactly the documented members (docs/api.md, Errors), made in one place.
import { randomInt } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { apiResponse } from './response-headers.js';

export const errorCodes = {
  'validation-failed': { status: 400, title: 'Validation Failed' },
  'ambiguous-api-key': { status: 400, title: 'Ambiguous API Key' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  'idempotency-in-progress': { status: 409, title: 'Idempotency Key In Progress' },
  'precondition-failed': { status: 412, title: 'Precondition Failed' },
  'cursor-expired': { status: 410, title: 'Cursor Expired' },
  'payload-too-large': { status: 413, title: 'Payload Too Large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  'unprocessable-entity': { status: 422, title: 'Unprocessable Entity' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency Key Reused' },
  'rate-limit-exceeded': { status: 429, title: 'Too Many Requests' },
  // Refused by Node's HTTP parser before any route runs (http/client-errors.ts).
  'bad-request': { status: 400, title: 'Bad Request' },
  'request-timeout': { status: 408, title: 'Request Timeout' },
  'request-header-fields-too-large': { status: 431, title: 'Request Header Fields Too Large' },
  'internal-error': { status: 500, title: 'Internal Server Error' },
  // GET /health/ready: this process cannot serve now (its database does not answer).
  'not-ready': { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { status: ContentfulStatusCode; title: string }>;

export type ErrorCode = keyof typeof errorCodes;

export interface FieldError {
  field: string;
  message: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  error_id: string;
  errors?: FieldError[];
  /** How many more entries there were than `errors` lists. */
  errors_omitted?: number;
}

/** The most entries `errors` lists; the rest are only counted, so that no error body grows with its input. */
export const MAX_LISTED_ERRORS = 20;
/** The longest `detail` and `instance`, and the longest field name or message of an entry, in characters. */
const MAX_DETAIL_LENGTH = 1000;
const MAX_ENTRY_TEXT_LENGTH = 200;

/** `text`, cut to `max` characters (the cut marked with an ellipsis). */
export const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * Thrown anywhere below the routes; turned into problem+json by the app's error handler. It is a response,
 * not a fault, so it carries no stack trace: capturing one costs more than the rest of a 404.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /**
     * `headers`: header fields of the response, by lower-case name. `errorsOmitted`: entries left out
     * of `errors` before it was built (the body lists at most MAX_LISTED_ERRORS in any case).
     */
    readonly options: { errors?: FieldError[]; errorsOmitted?: number; headers?: Record<string, string> } = {},
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = errorCodes[code].status;
  }
}

/** 400 for `errors` (at most MAX_LISTED_ERRORS of them), and `omitted` more that were only counted. */
export const validationFailed = (errors: FieldError[], omitted = 0) =>
  new ApiError('validation-failed', describeErrors(errors, omitted), { errors, errorsOmitted: omitted });

/** A detail that names the first errors, and how many more there were. */
export function describeErrors(errors: FieldError[], omitted = 0): string {
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  const more = errors.length - listed.length + omitted;
  const text = listed.map((e) => `${clip(e.field, MAX_ENTRY_TEXT_LENGTH)}: ${clip(e.message, MAX_ENTRY_TEXT_LENGTH)}`).join('; ');
  return more > 0 ? `${text}; and ${more} more` : text;
}

// No 0/O or 1/I: an error id is read out over the phone.
const ERROR_ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newErrorId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) {
    if (i === 4) id += '-';
    id += ERROR_ID_ALPHABET[randomInt(ERROR_ID_ALPHABET.length)];
  }
  return id;
}

/** The documented problem members for `error`, raised by a request for `instance` (its path). */
export function problemBody(error: ApiError, errorsUrl: string, instance: string, errorId = newErrorId()): Problem {
  const body: Problem = {
    type: `${errorsUrl}/${error.code}`,
    title: errorCodes[error.code].title,
    status: error.status,
    detail: clip(error.detail, MAX_DETAIL_LENGTH),
    // A path can be as long as Node's header limit allows (16 KiB): its start identifies the request.
    instance: clip(instance, MAX_DETAIL_LENGTH),
    error_id: errorId,
  };
  const { errors, errorsOmitted = 0 } = error.options;
  if (errors) {
    body.errors = errors
      .slice(0, MAX_LISTED_ERRORS)
      .map((e) => ({ field: clip(e.field, MAX_ENTRY_TEXT_LENGTH), message: clip(e.message, MAX_ENTRY_TEXT_LENGTH) }));
    const omitted = errors.length - body.errors.length + errorsOmitted;
    if (omitted > 0) body.errors_omitted = omitted;
  }
  return body;
}

export function problemResponse(c: Context, error: ApiError, errorsUrl: string, errorId = newErrorId()): Response {
  const body = JSON.stringify(problemBody(error, errorsUrl, c.req.path, errorId));
  c.set('errorId', errorId);
  return apiResponse(c, body, error.status, 'application/problem+json', error.options.headers);
}

// One body for every cause (missing, malformed, unknown, revoked, expired), so keys cannot be enumerated.
export const unauthorized = () =>
  new ApiError('unauthorized', 'A valid API key is required: send it in X-API-Key or as Authorization: Bearer <key>.', {
    headers: { 'www-authenticate': 'Bearer realm="akker"' },
  });
