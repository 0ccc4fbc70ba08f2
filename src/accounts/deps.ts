// What the account routes, the pages and the sign-up and sign-in paths they share are built from.
import type { Config } from '../core/config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { RateLimitStore } from '../rate-limit/store.js';

export interface AccountDeps {
  config: Config;
  database: DatabaseHandle;
  rateLimits: RateLimitStore;
}
