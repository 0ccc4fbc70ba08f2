// Accounts as JSON for scripts (/auth/*) and key management (/api/keys).
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { changePasswordWith } from './change-password.js';
import { SESSION_COOKIE } from './session-cookie.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../http/openapi.js';
import { envelope, pageQuerySchema, pageResponses } from '../http/pagination.js';
import { jsonContent } from '../http/route-helpers.js';
import { notFound } from '../core/domain-errors.js';
import { ApiError, describeErrors } from '../http/problem.js';
import { authorizeAccountChange } from '../access/roles.js';
import type { ApiEnv } from '../http/env.js';
import { ApiRoutes } from '../http/api-routes.js';
import { createApiKey, farmNotReachedMessage, keyCapMessage, listActiveApiKeys, revokeApiKey } from './api-keys-store.js';
import type { AccountDeps } from './deps.js';
import {
  apiKeyCreateSchema,
  apiKeySchema,
  changePasswordSchema,
  createdApiKeySchema,
  keyIdParams,
  passwordChangedSchema,
  signedOutEverywhereSchema,
  signInSchema,
  signUpSchema,
  userSchema,
} from './schemas.js';
import { isCrossOriginChange } from '../http/same-origin.js';
import { endEverySession, endSession, sessionToken, signedInAs, type SignedIn } from './session-cookie.js';
import { signInWith } from './sign-in.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { signUpWith } from './sign-up.js';
import { json, noContent } from '../http/responses.js';

const sessionHeader = {
  'Set-Cookie': { schema: { type: 'string' as const }, description: `The \`${SESSION_COOKIE}\` session cookie (HttpOnly, SameSite=Lax).` },
};
const keySecurity: Array<Record<string, string[]>> = [...apiKeySecurity, { SessionCookie: [] }];
const jsonBody = <S>(schema: S) => ({ body: { required: true, content: jsonContent(schema) } });
/** The user, in a response that sets the session cookie. */
const sessionStarted = (description: string) => ({ description, headers: sessionHeader, content: jsonContent(userSchema) });

const signUpRoute = createRoute({
  method: 'post',
  path: '/auth/sign-up',
  operationId: 'signUp',
  tags: ['Accounts'],
  summary: 'Create an account and start a session',
  description:
    'Sign-ups that pass validation are limited per client address (`SIGNUP_LIMIT_PER_HOUR`, 10 in a rolling hour by default, shared with the sign-up page); beyond the limit the answer is 429 with Retry-After.',
  request: jsonBody(signUpSchema),
  responses: {
    201: sessionStarted('The account; the response sets the session cookie.'),
    ...errorResponses(...bodyErrors, 'conflict', 'forbidden', 'rate-limit-exceeded'),
  },
});

const signInRoute = createRoute({
  method: 'post',
  path: '/auth/sign-in',
  operationId: 'signIn',
  tags: ['Accounts'],
  summary: 'Start a session',
  description:
    'Attempts that do not succeed are limited per e-mail address from one client address, and per client address (shared with the sign-in page); beyond the limit the answer is 429 with Retry-After, whatever the password. Failures from one address never lock the account out at another.',
  request: jsonBody(signInSchema),
  responses: {
    200: sessionStarted('Signed in; the response sets the session cookie.'),
    ...errorResponses(...bodyErrors, 'unauthorized', 'rate-limit-exceeded'),
  },
});

const signOutRoute = createRoute({
  method: 'post',
  path: '/auth/sign-out',
  operationId: 'signOut',
  tags: ['Accounts'],
  summary: 'End the session of the cookie sent (if any)',
  description: 'A request with the session cookie whose `Origin` names another site is refused with 403, and the session stays.',
  responses: {
    204: { description: 'Signed out; the cookie is cleared.' },
    ...errorResponses('payload-too-large', 'unsupported-media-type', 'forbidden'),
  },
});

const sessionCookieOnly =
  'Needs the session cookie (an API key is not enough); a request with it whose `Origin` names another site is refused with 403.';

const changePasswordRoute = createRoute({
  method: 'post',
  path: '/auth/change-password',
  operationId: 'changePassword',
  tags: ['Accounts'],
  summary: 'Change the password; every other session ends',
  description:
    `${sessionCookieOnly} The new password follows the rules of sign-up. Every session of the account ends, ` +
    'so a session cookie someone else holds stops working at once (401); this client goes on under a new session cookie ' +
    '(Set-Cookie), and the old one no longer works. API keys stay as they are: revoke any you think exposed. ' +
    'A wrong current password answers 403; attempts count with the sign-in attempts of the account from this client address, ' +
    'and beyond their limit the answer is 429 with Retry-After, whatever the password.',
  request: jsonBody(changePasswordSchema),
  responses: {
    200: {
      description: 'The password is changed and every other session signed out; the response sets the new session cookie.',
      headers: sessionHeader,
      content: jsonContent(passwordChangedSchema),
    },
    ...errorResponses(...bodyErrors, 'unauthorized', 'forbidden', 'rate-limit-exceeded'),
  },
});

const signOutEverywhereRoute = createRoute({
  method: 'post',
  path: '/auth/sign-out-everywhere',
  operationId: 'signOutEverywhere',
  tags: ['Accounts'],
  summary: 'End every session of the account',
  description: `${sessionCookieOnly} Every session of the account ends, this one included: each of their cookies answers 401 from now on. API keys stay as they are.`,
  responses: {
    200: { description: 'Signed out everywhere; the cookie is cleared.', content: jsonContent(signedOutEverywhereSchema) },
    ...errorResponses('payload-too-large', 'unsupported-media-type', 'unauthorized', 'forbidden'),
  },
});

const scopedKeysRefused =
  'With a key that is read-only or limited to some farms the answer is 403: manage keys with the session or a key without limits.';

const listKeysRoute = createRoute({
  method: 'get',
  path: '/api/keys',
  operationId: 'listApiKeys',
  tags: ['API keys'],
  summary: 'List your active API keys',
  description: `Revoked and expired keys are not listed. Ordered by creation time, then identifier. General rate limit. ${scopedKeysRefused}`,
  security: keySecurity,
  request: { query: pageQuerySchema },
  responses: pageResponses('One page of key metadata.', apiKeySchema, 'ApiKeyPage', 'forbidden'),
});

const createKeyRoute = createRoute({
  method: 'post',
  path: '/api/keys',
  operationId: 'createApiKey',
  tags: ['API keys'],
  summary: 'Create an API key',
  description:
    'The raw key is in the answer this once; only its hash is stored. A user holds a limited number of active keys at once (`MAX_KEYS_PER_USER`, 100 by default): beyond it the answer is 409 until a key is revoked or expires. ' +
    '`access` and `farms` make a key that holds less than you: read-only, or limited to some farms (each one you have a role on now, else 422, ' +
    `the same whether the farm exists or not). ${scopedKeysRefused}`,
  security: keySecurity,
  request: jsonBody(apiKeyCreateSchema),
  responses: {
    201: { description: 'The key metadata and the raw `key`.', content: jsonContent(createdApiKeySchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'forbidden', 'conflict', 'unprocessable-entity'),
  },
});

const revokeKeyRoute = createRoute({
  method: 'delete',
  path: '/api/keys/{id}',
  operationId: 'revokeApiKey',
  tags: ['API keys'],
  summary: 'Revoke an API key',
  description: `Every later request with the key answers 401. An unknown, revoked, expired or foreign key answers 404. ${scopedKeysRefused}`,
  security: keySecurity,
  request: { params: keyIdParams },
  responses: {
    204: { description: 'Revoked.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'not-found', 'forbidden'),
  },
});

export function accountRoutes(deps: AccountDeps, signInThrottle: SignInThrottle) {
  const { config, database } = deps;
  const db = database.db;
  const signUp = signUpWith(deps);
  const signIn = signInWith(deps, signInThrottle);
  const changePassword = changePasswordWith(deps, signInThrottle);
  const app = new ApiRoutes();

  const crossOrigin = () => new ApiError('forbidden', 'This request came from another site and was refused.');
  const tooMany = (detail: string, retryAfterSeconds: number) =>
    new ApiError('rate-limit-exceeded', detail, { headers: { 'retry-after': String(retryAfterSeconds) } });

  // Hono's own responses (c.json): only they carry the session cookie set through Hono.
  app.openapi(signUpRoute, async (c) => {
    const outcome = await signUp(c, c.req.valid('json'));
    switch (outcome.kind) {
      case 'closed':
        throw new ApiError('forbidden', 'Sign-up is closed on this server.');
      case 'throttled':
        throw tooMany(`Too many sign-ups from this address; try again in ${outcome.retryAfterSeconds} s.`, outcome.retryAfterSeconds);
      case 'taken':
        throw new ApiError('conflict', 'An account with this e-mail address exists already.');
      case 'signed-up':
        return c.json(outcome.user, 201);
    }
  });

  app.openapi(signInRoute, async (c) => {
    const outcome = await signIn(c, c.req.valid('json'));
    switch (outcome.kind) {
      case 'throttled':
        throw tooMany(`Too many sign-in attempts failed. Try again in ${outcome.retryAfterSeconds} seconds.`, outcome.retryAfterSeconds);
      case 'refused':
        throw new ApiError('unauthorized', 'The e-mail address or the password is wrong.');
      case 'signed-in':
        return c.json(outcome.user, 200);
    }
  });

  app.openapi(signOutRoute, async (c) => {
    if (sessionToken(c) !== undefined && isCrossOriginChange(c, config.publicUrl)) throw crossOrigin();
    await endSession(c, db, config);
    return c.body(null, 204);
  });

  /** The account of the session cookie, for a change it asks for; 401 without a live session, 403 from another site. */
  async function sessionForChange(c: Context): Promise<SignedIn> {
    const account = await signedInAs(c, db);
    if (!account) throw new ApiError('unauthorized', 'Sign in first: this needs the session cookie of a live session.');
    if (isCrossOriginChange(c, config.publicUrl)) throw crossOrigin();
    return account;
  }

  app.openapi(changePasswordRoute, async (c) => {
    const { current_password, new_password } = c.req.valid('json');
    const outcome = await changePassword(c, await sessionForChange(c), { current: current_password, replacement: new_password });
    switch (outcome.kind) {
      case 'throttled':
        throw tooMany(`Too many password attempts failed. Try again in ${outcome.retryAfterSeconds} seconds.`, outcome.retryAfterSeconds);
      case 'refused':
        throw new ApiError('forbidden', 'The current password is wrong; the password was not changed.');
      case 'changed':
        return c.json({ other_sessions_ended: outcome.otherSessionsEnded }, 200);
    }
  });

  app.openapi(signOutEverywhereRoute, async (c) => {
    const { user } = await sessionForChange(c);
    return c.json({ sessions_ended: await endEverySession(c, db, config, user.user_id) }, 200);
  });

  /** The user whose keys a request manages: with a key, only one that holds all its owner's access. */
  function keyManager(c: Context<ApiEnv>): string {
    const principal = c.get('principal');
    authorizeAccountChange(principal, 'manage API keys');
    return principal.userId;
  }

  app.openapi(listKeysRoute, async (c) => {
    const page = c.req.valid('query');
    const { data, total } = await listActiveApiKeys(db, keyManager(c), page.limit, page.offset);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(createKeyRoute, async (c) => {
    const { name, expires_at, access = 'write', farms = null } = c.req.valid('json');
    const expiresAt = expires_at ? new Date(expires_at) : null;
    const outcome = await createApiKey(db, keyManager(c), { name, expiresAt, scope: { access, farms } }, config.maxKeysPerUser);
    switch (outcome.kind) {
      case 'at-cap':
        throw new ApiError('conflict', keyCapMessage(config.maxKeysPerUser));
      case 'farms-not-reached': {
        const errors = outcome.positions.map((position) => ({ field: `farms.${position}`, message: farmNotReachedMessage }));
        throw new ApiError('unprocessable-entity', describeErrors(errors), { errors });
      }
      case 'created':
        return json(c, outcome.key, 201);
    }
  });

  app.openapi(revokeKeyRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await revokeApiKey(db, keyManager(c), id))) throw notFound('The API key does not exist.');
    return noContent(c);
  });

  return app;
}
