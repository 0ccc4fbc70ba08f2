// Idempotency-Key on POST (docs/api.md, Idempotency): the first request with a key reserves it and does
// the work, and its final answer is stored; the same request with the key again gets that answer,
// another request with the key is 422, and one arriving while the first is at work is 409.
import { createHash, randomBytes } from 'node:crypto';
import type { Context, Next } from 'hono';
import { completeKey, releaseKey, reserveKey, type KeyOwner, type StoredResponse } from '../idempotency/store.js';
import { apiResponse } from '../http/response-headers.js';
import type { AppDeps } from './deps.js';
import type { ApiEnv } from '../http/env.js';
import type { MiddlewareHandler } from 'hono';
import { isUnder } from './guards.js';
import { ApiError, validationFailed } from '../http/problem.js';
import { requestHeader } from '../http/request-headers.js';

/** 1 to 255 visible ASCII characters. */
const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/;
/** The largest answer body stored (UTF-8 bytes); a larger answer is not stored and its key is released. */
export const MAX_STORED_BODY_BYTES = 1024 * 1024;
/** On a replayed answer, `true`. */
export const REPLAYED_FIELD = 'idempotent-replayed';
/** Creating an API key answers the raw key, which is never stored: this POST takes no Idempotency-Key. */
export const WITHOUT_IDEMPOTENCY_KEY = '/api/keys';

/** The check for a POST with `Idempotency-Key`; any other request passes as it is. Runs after the key and the rate limit. */
export function idempotency(deps: AppDeps): MiddlewareHandler<ApiEnv> {
  return (c, next) => {
    if (c.req.method !== 'POST') return next();
    const sent = requestHeader(c, 'idempotency-key');
    if (sent === undefined) return next();
    if (!KEY_SYNTAX.test(sent)) throw malformedKey();
    if (isUnder(c.req.path, WITHOUT_IDEMPOTENCY_KEY)) throw keyManagementRefusal();
    return once(c, next, deps, { userId: c.get('principal').userId, key: sent });
  };
}

const malformedKey = () =>
  validationFailed([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters, no spaces; send one per request' }]);

const keyManagementRefusal = () =>
  validationFailed([
    { field: 'Idempotency-Key', message: 'is not taken by POST /api/keys: its answer holds the new raw key, which is never stored' },
  ]);

async function once(c: Context<ApiEnv>, next: Next, deps: AppDeps, owner: KeyOwner): Promise<void> {
  const db = deps.database.db;
  const fingerprint = await fingerprintOf(c);
  const reservation = randomBytes(16).toString('base64url');
  const found = await reserveKey(db, owner, fingerprint, reservation);
  if (!found.reserved) {
    if (found.fingerprint !== fingerprint) throw keyReused();
    if (found.answer === null) throw keyInUse();
    c.res = replay(c, found.answer);
    return;
  }
  try {
    await next();
  } catch (error) {
    // Answered further out, with no answer here to store: the key is let go, as after a 5xx.
    await releaseKey(db, owner, reservation).catch((releaseError: unknown) => logFailure(c, deps, releaseError));
    throw error;
  }
  await settle(c, deps, owner, reservation).catch((error: unknown) => logFailure(c, deps, error));
}

/** The method, the path with its query and the body, as sent: a SHA-256. */
async function fingerprintOf(c: Context): Promise<string> {
  const { pathname, search } = new URL(c.req.url);
  const body = await c.req.text();
  return createHash('sha256').update(`${c.req.method} ${pathname}${search}\n`).update(body).digest('base64url');
}

/** Final answers (2xx, 4xx but 429) are stored; after any other, or one too large to store, the key is released. */
async function settle(c: Context<ApiEnv>, deps: AppDeps, owner: KeyOwner, reservation: string): Promise<void> {
  const db = deps.database.db;
  const response = c.res;
  const { status, headers } = response;
  if (status >= 500 || status === 429) return releaseKey(db, owner, reservation);
  const body = response.body === null ? null : await response.text();
  // The body has been read: the response goes out as a new Response with the same status and fields.
  c.res = undefined;
  c.res = new Response(body, { status, headers });
  if (body !== null && Buffer.byteLength(body) > MAX_STORED_BODY_BYTES) return releaseKey(db, owner, reservation);
  const stored: StoredResponse = {
    status,
    contentType: headers.get('content-type'),
    location: headers.get('location'),
    etag: headers.get('etag'),
    body,
  };
  return completeKey(db, owner, reservation, stored);
}

/** The stored response again, with the fields of this request's checks (rate limit and the like). */
function replay(c: Context, stored: StoredResponse): Response {
  const own: Record<string, string> = { [REPLAYED_FIELD]: 'true' };
  if (stored.location !== null) own.location = stored.location;
  if (stored.etag !== null) own.etag = stored.etag;
  return apiResponse(c, stored.body, stored.status, stored.contentType ?? undefined, own);
}

const keyReused = () =>
  new ApiError(
    'idempotency-key-reused',
    'This Idempotency-Key was first sent with another request (method, path or body); send a new key with a new request.',
  );

const keyInUse = () =>
  new ApiError(
    'idempotency-in-progress',
    'A request with this Idempotency-Key is still being answered; send it again once that one is answered to receive its answer.',
  );

/** The response stands; the key stays reserved until the takeover bound (docs/api.md, Idempotency). */
function logFailure(c: Context<ApiEnv>, deps: AppDeps, error: unknown): void {
  deps.log.error({ request_id: c.get('requestId'), path: c.req.path, error: String(error) }, 'storing the idempotent answer failed');
}
