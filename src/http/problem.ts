// problem+json (RFC 9457) with exactly the members of SPEC.md, made in one place.
import { randomInt } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { answer } from './answer-headers.js';

export const errorCodes = {
  'validation-failed': { status: 400, title: 'Validation Failed' },
  'ambiguous-api-key': { status: 400, title: 'Ambiguous API Key' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  'payload-too-large': { status: 413, title: 'Payload Too Large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  'unprocessable-entity': { status: 422, title: 'Unprocessable Entity' },
  'rate-limit-exceeded': { status: 429, title: 'Too Many Requests' },
  // Refused by Node's HTTP parser before any route runs (http/client-errors.ts).
  'bad-request': { status: 400, title: 'Bad Request' },
  'request-timeout': { status: 408, title: 'Request Timeout' },
  'request-header-fields-too-large': { status: 431, title: 'Request Header Fields Too Large' },
  'internal-error': { status: 500, title: 'Internal Server Error' },
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
}

/**
 * Thrown anywhere below the routes; turned into problem+json by the app's error handler. It is an answer,
 * not a fault, so it carries no stack trace: capturing one costs more than the rest of a 404.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** `headers`: header fields of the answer, by lower-case name. */
    readonly options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = errorCodes[code].status;
  }
}

export const notFound = (detail = 'The resource does not exist.') => new ApiError('not-found', detail);

export const validationFailed = (errors: FieldError[]) =>
  new ApiError('validation-failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });

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

/** The members of SPEC.md for `error`, raised by a request for `instance` (its path). */
export function problemBody(error: ApiError, errorsUrl: string, instance: string, errorId = newErrorId()): Problem {
  const body: Problem = {
    type: `${errorsUrl}/${error.code}`,
    title: errorCodes[error.code].title,
    status: error.status,
    detail: error.detail,
    instance,
    error_id: errorId,
  };
  if (error.options.errors) body.errors = error.options.errors;
  return body;
}

export function problemResponse(c: Context, error: ApiError, errorsUrl: string, errorId = newErrorId()): Response {
  const body = JSON.stringify(problemBody(error, errorsUrl, c.req.path, errorId));
  return answer(c, body, error.status, 'application/problem+json', error.options.headers);
}

// One body for every cause (missing, malformed, unknown, revoked, expired), so keys cannot be enumerated.
export const unauthorized = () =>
  new ApiError('unauthorized', 'A valid API key is required: send it in X-API-Key or as Authorization: Bearer <key>.', {
    headers: { 'www-authenticate': 'Bearer realm="akker"' },
  });
