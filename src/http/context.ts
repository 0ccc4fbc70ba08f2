// What every module of the app is given, and what a request carries through the middleware.
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { KeyResolver } from '../accounts/key-resolver.js';
import type { FarmRoleCache } from '../access/farm-role-cache.js';
import type { Principal } from '../accounts/principal.js';
import type { RateLimitStore } from './rate-limit/store.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  keys: KeyResolver;
  farmRoles: FarmRoleCache;
  rateLimits: RateLimitStore;
}

export interface AppEnv {
  Variables: {
    principal: Principal;
    /** See http/answer-headers.ts. */
    answerHeaders?: Record<string, string>;
  };
}
