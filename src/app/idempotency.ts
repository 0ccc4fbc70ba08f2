// Idempotency-Key on POST (docs/api.md, Idempotency): the first request with a key reserves it and does
// the work, and its final response is stored (a write's in the write's own transaction); the same request
// with the key again gets that response, another request with the key is 422, and one arriving while the
// first is at work is 409.
import { createHash, randomBytes } from 'node:crypto';
import type { Context, Next } from 'hono';
import {
  completeKey,
  releaseKey,
  reserveKey,
  type FoundResponse,
  type KeyOwner,
  type StorageBudget,
  type StoredResponse,
} from '../idempotency/store.js';
import type { Database } from '../db/client.js';
import { apiResponse } from '../http/response-headers.js';
import type { AppDeps } from './deps.js';
import type { ApiEnv } from '../http/env.js';
import { isScoped } from '../core/principal.js';
import type { MiddlewareHandler } from 'hono';
import { isUnder } from './guards.js';
import { ApiError, validationFailed } from '../http/problem.js';
import { requestHeader } from '../http/request-headers.js';

/** 1 to 255 visible ASCII characters. */
const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/;
/** The largest response body stored (UTF-8 bytes); a larger one is stored without its body. */
export const MAX_STORED_BODY_BYTES = 1024 * 1024;
/** On a replayed response, `true`. */
export const REPLAYED_FIELD = 'idempotent-replayed';
/** On a replayed response whose body was not stored, `omitted`. */
export const BODY_FIELD = 'idempotent-body';
/** Creating an API key answers the raw key, which is never stored: this POST takes no Idempotency-Key. */
export const WITHOUT_IDEMPOTENCY_KEY = '/api/keys';

/** The check of a POST (app.ts registers it for POST only) with `Idempotency-Key`; one without passes as it is. Runs after the key and the rate limit. */
export function idempotency(deps: AppDeps): MiddlewareHandler<ApiEnv> {
  return (c, next) => {
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
  const budget = budgetOf(deps);
  let storedWithWrite = false;
  // A write stores its response in its own transaction (http/write-response.ts): the write never commits without it.
  c.set('storeResponse', async (tx, response) => {
    await completeKey(tx, owner, reservation, await storedFormOf(response), budget);
    storedWithWrite = true;
  });
  try {
    await next();
  } catch (error) {
    // Answered further out, with no response here to store: the key is let go, as after a 5xx.
    await releaseKey(db, owner, reservation).catch((releaseError: unknown) => logFailure(c, deps, releaseError));
    throw error;
  }
  // Stored by a write: below 500 its transaction committed, with the response (a commit that fails is a 5xx);
  // after a 5xx, settle lets the key go, which keeps a key whose response is stored.
  if (storedWithWrite && c.res.status < 500) return;
  await settle(c, db, owner, reservation, budget).catch((error: unknown) => logFailure(c, deps, error));
}

const budgetOf = ({ config }: AppDeps): StorageBudget => ({ maxBodyBytes: MAX_STORED_BODY_BYTES, ...config.idempotencyBudget });

/**
 * The method, the path with its query and the body, as sent, and the scope of a key that holds less than
 * its user: a SHA-256. So a key limited to some farms, or read-only, is never replayed the stored answer of
 * a wider key of its user (a record of a farm it does not reach): to it the key was used for another request.
 */
async function fingerprintOf(c: Context<ApiEnv>): Promise<string> {
  const { pathname, search } = new URL(c.req.url);
  const body = await c.req.text();
  const hash = createHash('sha256').update(`${c.req.method} ${pathname}${search}\n`).update(body);
  const { scope } = c.get('principal');
  if (isScoped(scope)) hash.update(`\n${JSON.stringify({ access: scope.access, farms: scope.farms })}`);
  return hash.digest('base64url');
}

/**
 * The response of a request that wrote nothing (or whose write failed): a final one (2xx, 4xx but 429) is
 * stored in a transaction of its own; after any other the key is released.
 */
async function settle(c: Context<ApiEnv>, db: Database, owner: KeyOwner, reservation: string, budget: StorageBudget): Promise<void> {
  const { status } = c.res;
  if (status >= 500 || status === 429) return releaseKey(db, owner, reservation);
  const stored = await storedFormOf(c.res);
  await db.transaction((tx) => completeKey(tx, owner, reservation, stored, budget));
}

/** What is stored of `response`; its body is read from a copy, and the response goes out as it is. */
async function storedFormOf(response: Response): Promise<StoredResponse> {
  const { status, headers } = response;
  return {
    status,
    contentType: headers.get('content-type'),
    location: headers.get('location'),
    etag: headers.get('etag'),
    body: response.body === null ? null : await response.clone().text(),
  };
}

/** The stored response again, with the fields of this request's checks (rate limit and the like). */
function replay(c: Context, stored: FoundResponse): Response {
  const own: Record<string, string> = { [REPLAYED_FIELD]: 'true' };
  if (stored.location !== null) own.location = stored.location;
  if (stored.etag !== null) own.etag = stored.etag;
  if (stored.bodyOmitted) {
    own[BODY_FIELD] = 'omitted';
    return apiResponse(c, null, stored.status, undefined, own);
  }
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
