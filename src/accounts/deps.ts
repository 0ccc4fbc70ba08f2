// What the account routes, the pages and the sign-up and sign-in paths they share are built from.
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { DatabaseHandle } from '../db/client.js';
import type { RateLimitWindows } from '../rate-limit/windows.js';

export interface AccountDeps {
  config: Config;
  database: DatabaseHandle;
  rateLimits: RateLimitWindows;
  log: Pick<Logger, 'error'>;
}
