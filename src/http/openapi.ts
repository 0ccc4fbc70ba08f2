// What every operation of the OpenAPI document shares: the problem schema, error responses, security.
import { z } from '@hono/zod-openapi';
import { ACCOUNT_BUDGET, describeBytes, GEOMETRY_BUDGET, WRITE_BUDGET } from './body-budget.js';
import { exampleProblem } from './error-catalogue.js';
import { errorCodes, MAX_LISTED_ERRORS, type ErrorCode } from './problem.js';

export const problemSchema = z
  .object({
    type: z.string().openapi({ description: '`$PUBLIC_URL/errors/<code>`', example: 'https://akker.example/errors/not-found' }),
    title: z.string().openapi({ description: 'Short title of the error code.', example: 'Not Found' }),
    status: z.number().int().openapi({ description: 'The HTTP status of the answer.', example: 404 }),
    detail: z.string().openapi({ description: 'What was wrong with this request.', example: 'The farm does not exist.' }),
    instance: z.string().openapi({ description: 'The request path.', example: '/api/farms/3sJb0u5X7vRk1cQm9Yp2Ag' }),
    error_id: z
      .string()
      .regex(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/)
      .openapi({ description: 'Reference of this error, also written to the server log.', example: 'K7QD-M2XA' }),
    errors: z
      .array(
        z.object({
          field: z.string().openapi({ description: 'The invalid field: a body member (dotted path), a query or path parameter.' }),
          message: z.string().openapi({ description: 'What is wrong with it.' }),
        }),
      )
      .optional()
      .openapi({ description: `Present on validation-failed: one entry per invalid field, the first ${MAX_LISTED_ERRORS} of them.` }),
    errors_omitted: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: 'Present when there were more invalid fields than `errors` lists: how many more.', example: 3 }),
  })
  .openapi('Problem');

const descriptions: Record<ErrorCode, string> = {
  'validation-failed':
    `Invalid query parameter, malformed JSON, a JSON body nested more than ${WRITE_BUDGET.maxDepth} deep or holding more array elements and object members than the operation accepts ` +
    `(${ACCOUNT_BUDGET.maxElements} on account operations, ${GEOMETRY_BUDGET.maxElements} on a field, ${WRITE_BUDGET.maxElements} on any other), or a missing, ill-typed or unknown body field (\`validation-failed\`).`,
  'ambiguous-api-key': 'Both X-API-Key and Authorization were sent (`ambiguous-api-key`).',
  unauthorized: 'Missing, malformed, unknown, revoked or expired API key (`unauthorized`).',
  forbidden: 'Your role allows reading this resource but not this action (`forbidden`).',
  'not-found': 'The resource does not exist, or you have no access to it (`not-found`).',
  'method-not-allowed': 'The path does not serve this method; see the Allow header (`method-not-allowed`).',
  conflict: 'The request contradicts stored state (`conflict`).',
  'precondition-failed':
    'The record has changed since the version named in If-Match: nothing was changed; read it again (`precondition-failed`).',
  'cursor-expired':
    'The change feed no longer holds the entries after this cursor (kept for a limited time): read the farm afresh and follow the feed from its new `next` (`cursor-expired`).',
  'payload-too-large':
    `The body is larger than this operation accepts: ${describeBytes(ACCOUNT_BUDGET.maxBytes)} for sign-up, sign-in and key management, ` +
    `${describeBytes(GEOMETRY_BUDGET.maxBytes)} for a field (which may carry a geometry), ${describeBytes(WRITE_BUDGET.maxBytes)} for any other (\`payload-too-large\`).`,
  'idempotency-in-progress':
    'A request with the same Idempotency-Key is still being answered; retry once it is (`idempotency-in-progress`).',
  'idempotency-key-reused': 'The Idempotency-Key was first sent with another path or body (`idempotency-key-reused`).',
  'unsupported-media-type': 'The body is not application/json (`unsupported-media-type`).',
  'unprocessable-entity': 'The data is well-formed but semantically invalid (`unprocessable-entity`).',
  'rate-limit-exceeded': 'Rate limit exceeded; see Retry-After (`rate-limit-exceeded`).',
  'internal-error': 'Unexpected failure; quote error_id when reporting it (`internal-error`).',
  'not-ready': 'The process cannot serve now: its database does not answer (`not-ready`, GET /health/ready only).',
  'bad-request': 'The request is not valid HTTP/1.1; the connection is closed (`bad-request`).',
  'request-timeout': 'The request did not arrive in full in time; the connection is closed (`request-timeout`).',
  'request-header-fields-too-large':
    'The request line and header fields are larger than the server accepts; the connection is closed (`request-header-fields-too-large`).',
};

/** Refused by the HTTP server itself, before any check of the API: any operation can meet them. */
const connectionErrors: ErrorCode[] = ['bad-request', 'request-timeout', 'request-header-fields-too-large'];

/** The problem+json content of one status, with an example of each of its codes (an example's name is its code). */
const problemContent = (codes: ErrorCode[]) => ({
  'application/problem+json': {
    schema: problemSchema,
    examples: Object.fromEntries(
      codes.map((code) => [code, { summary: errorCodes[code].title, value: exampleProblem(code, 'https://akker.example/errors') }]),
    ),
  },
});

const headerOf = (description: string, example: string) => ({ schema: { type: 'string' as const, example }, description });

/** The headers of a 429; RateLimit and RateLimit-Policy are on every other authenticated answer too. */
const rateLimitHeaders = {
  'Retry-After': headerOf('Whole seconds until the oldest counted request leaves the window.', '42'),
  RateLimit: headerOf(
    'draft-ietf-httpapi-ratelimit-headers: the policy that applies, remaining requests `r`, seconds until one more fits `t`.',
    '"write";r=0;t=42',
  ),
  'RateLimit-Policy': headerOf(
    'The policy that applies: quota `q` in a window of `w` seconds (general, write or calculation).',
    '"write";q=30;w=60',
  ),
};

/** Error responses of an operation, grouped by status (two codes may share 400). */
export function errorResponses(...codes: ErrorCode[]) {
  const all: ErrorCode[] = [...codes, 'method-not-allowed', 'internal-error', ...connectionErrors];
  const byStatus: Record<string, { description: string; content: ReturnType<typeof problemContent>; headers?: typeof rateLimitHeaders }> =
    {};
  const codesByStatus = new Map<string, ErrorCode[]>();
  for (const code of new Set(all)) {
    const status = String(errorCodes[code].status);
    const existing = byStatus[status];
    const codesOfStatus = [...(codesByStatus.get(status) ?? []), code];
    codesByStatus.set(status, codesOfStatus);
    byStatus[status] = {
      description: existing ? `${existing.description} Or: ${descriptions[code]}` : descriptions[code],
      content: problemContent(codesOfStatus),
      ...(existing?.headers || code === 'rate-limit-exceeded' ? { headers: rateLimitHeaders } : {}),
    };
  }
  return byStatus;
}

/** Errors any authenticated request can meet before its route-specific checks. */
export const authenticatedErrors: ErrorCode[] = ['ambiguous-api-key', 'unauthorized', 'rate-limit-exceeded'];
/** Errors of the size and media type checks, which run on every request but GET and HEAD: a DELETE sent a body meets them too. */
export const bodyCheckErrors: ErrorCode[] = ['payload-too-large', 'unsupported-media-type'];
/** Errors any request with a JSON body can meet. */
export const bodyErrors: ErrorCode[] = [...bodyCheckErrors, 'validation-failed'];

export const apiKeySecurity: Array<Record<string, string[]>> = [{ ApiKeyHeader: [] }, { BearerAuth: [] }];
