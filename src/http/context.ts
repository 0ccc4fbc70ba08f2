// What every module of the app is given, and what a request carries through the middleware.
import type { Context, Next } from 'hono';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { KeyResolver } from '../accounts/key-resolver.js';
import type { AccessMemory } from '../access/access-memory.js';
import type { Principal } from '../accounts/principal.js';
import type { RateLimitStore } from './rate-limit/store.js';
import type { AnswerHeaders } from './answer-fields.js';
import type { Logger } from '../logger.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  keys: KeyResolver;
  access: AccessMemory;
  rateLimits: RateLimitStore;
  log: Logger;
}

export interface AppEnv {
  Variables: {
    principal: Principal;
    /** See http/answer-headers.ts. */
    answerHeaders?: AnswerHeaders;
    /** See http/request-log.ts. */
    requestId?: string;
    /** The error_id of the problem the request was answered with, for the request log. */
    errorId?: string;
  };
}

/**
 * One of the checks in front of the API's routes (see app.ts): it runs `next` (the checks after it and
 * the route) or throws an ApiError. Unlike a Hono middleware it never answers by returning a Response.
 */
export type Check = (c: Context<AppEnv>, next: Next) => Promise<void>;
