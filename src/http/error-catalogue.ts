// What each error code means to a client, with a typical answer: read by the problem type pages
// (/errors/<code>) and by the OpenAPI document's examples.
import { errorCodes, type ErrorCode, type FieldError } from './problem.js';

export interface ErrorGuide {
  /** What happened and what the client can do about it. */
  description: string;
  /** A typical answer with this code: its detail, the path it answered, and for validation its entries. */
  example: { detail: string; instance: string; errors?: FieldError[] };
}

export const errorGuides: Record<ErrorCode, ErrorGuide> = {
  'validation-failed': {
    description:
      'A query parameter, a path parameter or the JSON body is not what the operation accepts: malformed JSON, a missing or ill-typed field, ' +
      'a field the schema does not know, a value out of range or a malformed date. `errors` lists one `{field, message}` per problem. ' +
      'Correct the request; sending it again unchanged gives the same answer.',
    example: {
      detail: 'limit: must be at most 200',
      instance: '/api/farms',
      errors: [{ field: 'limit', message: 'must be at most 200' }],
    },
  },
  'ambiguous-api-key': {
    description:
      'The request carries both `X-API-Key` and `Authorization`. Send the key in exactly one of them, so that it is clear which key the request is made with.',
    example: { detail: 'Send the API key in one header only: X-API-Key or Authorization: Bearer.', instance: '/api/farms' },
  },
  unauthorized: {
    description:
      'The API key is missing, malformed, unknown, revoked or expired. The answer does not say which, so that keys cannot be guessed. ' +
      'Create a key on the account page or with POST /api/keys and send it in `X-API-Key` or as `Authorization: Bearer <key>`.',
    example: { detail: 'A valid API key is required: send it in X-API-Key or as Authorization: Bearer <key>.', instance: '/api/farms' },
  },
  forbidden: {
    description:
      'Your role on the farm lets you read this resource but not do this to it: a researcher only reads, an advisor cannot manage access, ' +
      'and only an owner or an advisor changes or deletes. Ask an owner of the farm for another role.',
    example: {
      detail: 'Your role on this farm (researcher) does not allow you to change this farm.',
      instance: '/api/farms/3sJb0u5X7vRk1cQm9Yp2Ag',
    },
  },
  'not-found': {
    description:
      'Nothing is served at this path, the resource does not exist (a repeated delete included), or you have no role on its farm. ' +
      'A resource you may not read answers exactly as one that does not exist, so that identifiers cannot be probed.',
    example: { detail: 'The farm does not exist.', instance: '/api/farms/3sJb0u5X7vRk1cQm9Yp2Ag' },
  },
  'method-not-allowed': {
    description: 'The path exists but does not serve this method. The `Allow` header lists the methods it serves.',
    example: { detail: 'PUT is not served at /api/farms; use GET, HEAD, POST.', instance: '/api/farms' },
  },
  'precondition-failed': {
    description:
      'A PATCH or DELETE sent If-Match with entity tags the record no longer has: someone changed it since you read it, and nothing was changed now. ' +
      'Read the record again (its answer carries the current ETag), reapply your change to what you read, and send it with the new tag.',
    example: {
      detail:
        'The farm has changed since the version you sent in If-Match; its ETag is now "q0Zl3xYf8cTn2WbJ5kRsE7uVhA9dGmP1oLzC4iNwB6y". Read it again and reapply your change.',
      instance: '/api/farms/3sJb0u5X7vRk1cQm9Yp2Ag',
    },
  },
  'cursor-expired': {
    description:
      'The `after` cursor of a change feed is older than the oldest entry the feed still holds: entries are kept for a limited time ' +
      '(`CHANGES_RETENTION_DAYS`, 90 days unless the operator set another), and some that followed this cursor are gone, so following ' +
      'the feed from it would miss changes. Read the farm afresh (its lists), then follow the feed from the `next` of a request without `after`.',
    example: {
      detail:
        'The change feed no longer holds the entries that followed this cursor: read the farm afresh, then follow the feed from the next of a request without after.',
      instance: '/api/farms/3sJb0u5X7vRk1cQm9Yp2Ag/changes',
    },
  },
  conflict: {
    description:
      'The request contradicts what is stored: an e-mail address that has an account already, an end date before a stored start date, ' +
      'a fertilizer that applications still use, the last owner of a farm. The detail says which; change the stored data first or the request.',
    example: {
      detail: 'A farm keeps at least one owner: make someone else owner first.',
      instance: '/api/farms/3sJb0u5X7vRk1cQm9Yp2Ag/access',
    },
  },
  'idempotency-in-progress': {
    description:
      'A POST with this `Idempotency-Key` is still being answered: the first request with a key does the work, and a second one while it runs ' +
      'is refused rather than run twice. Send the request again once the first is answered, and you receive its answer.',
    example: {
      detail: 'A request with this Idempotency-Key is still being answered; send it again once that one is answered to receive its answer.',
      instance: '/api/farms',
    },
  },
  'payload-too-large': {
    description:
      'The request body is larger than the operation accepts. It is refused on the bytes received, before anything is parsed or stored. ' +
      'Send a smaller body, for example a geometry with fewer coordinates.',
    example: { detail: 'The request body is larger than this operation accepts.', instance: '/api/farms/3sJb0u5X7vRk1cQm9Yp2Ag/fields' },
  },
  'unsupported-media-type': {
    description:
      'The request has a body that is not JSON, or a body without a `Content-Type`. Send the body as `Content-Type: application/json`.',
    example: { detail: 'Content-Type text/plain is not accepted; send application/json.', instance: '/api/farms' },
  },
  'unprocessable-entity': {
    description:
      'The request is well-formed but its data cannot be meaningful: an end before its start, a polygon that crosses itself or has too many ' +
      'coordinates, a code that is not in the catalogue, an amount in a unit the fertilizer is not applied in. The detail says which.',
    example: {
      detail: 'b_lu_catalogue nl_9999 is not in the crop catalogue (GET /api/catalogues/cultivations).',
      instance: '/api/fields/Qm9Yp2Ag3sJb0u5X7vRk1c/cultivations',
    },
  },
  'idempotency-key-reused': {
    description:
      'The `Idempotency-Key` was first sent with another request: another path or another body (compared byte for byte) under the same key. ' +
      'Nothing was done. A key names one request: send a new key with a new request, and the same request (same path, same body) with a retry.',
    example: {
      detail: 'This Idempotency-Key was first sent with another request (method, path or body); send a new key with a new request.',
      instance: '/api/farms',
    },
  },
  'rate-limit-exceeded': {
    description:
      'More requests than the limit in a rolling minute: general (reads and key management), write (other changes) or calculation, ' +
      'counted per API key. `Retry-After` gives the whole seconds until one more request fits; `RateLimit` and `RateLimit-Policy` say which ' +
      'limit applies. Too many failed sign-ins are refused in the same way.',
    example: { detail: 'More than 30 write requests in 60 s for this API key; retry in 42 s.', instance: '/api/farms' },
  },
  'internal-error': {
    description:
      'Something failed on the server that the request could not have caused. Nothing was half-written. The answer holds no internals; ' +
      'quote its `error_id` when you report it: the same reference is in the server log.',
    example: { detail: 'An unexpected error occurred. Quote the error_id when you report it.', instance: '/api/farms' },
  },
  'not-ready': {
    description:
      'Answered by GET /health/ready alone: this process cannot serve requests now, because its database does not answer a statement. ' +
      'A load balancer sends its traffic to another process until the check answers 200 again.',
    example: { detail: 'The database does not answer: this process cannot serve requests now.', instance: '/health/ready' },
  },
  'bad-request': {
    description:
      'What arrived is not valid HTTP/1.1, so the server cannot tell what was asked. The connection is closed after this answer. ' +
      'Check the client or proxy that sent it.',
    example: { detail: 'The request is not valid HTTP/1.1.', instance: '/' },
  },
  'request-timeout': {
    description:
      'The request line, header fields or body did not arrive in full in time. The connection is closed after this answer; send the request again.',
    example: { detail: 'The request did not arrive in full in time.', instance: '/api/farms' },
  },
  'request-header-fields-too-large': {
    description:
      'The request line and header fields together are larger than the server accepts. The connection is closed after this answer; ' +
      'send fewer or shorter header fields (cookies, for example).',
    example: { detail: 'The request line and header fields together are larger than the server accepts.', instance: '/api/farms' },
  },
};

/** The members of a response with `code`, as a client would receive it, for documentation. */
export function exampleProblem(code: ErrorCode, errorsUrl: string) {
  const { example } = errorGuides[code];
  return {
    type: `${errorsUrl}/${code}`,
    title: errorCodes[code].title,
    status: errorCodes[code].status,
    detail: example.detail,
    instance: example.instance,
    error_id: 'K7QD-M2XA',
    ...(example.errors ? { errors: example.errors } : {}),
  };
}
