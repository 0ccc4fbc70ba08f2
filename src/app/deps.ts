// What the app is assembled from: its configuration, database, memory of keys and roles, rate-limit
// windows and log. Only the composition root sees all of it; a route module is given what it uses.
import type { Config } from '../core/config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { KeyResolver } from '../accounts/key-resolver.js';
import type { AccessMemory } from '../access/access-memory.js';
import type { RateLimitWindows } from '../rate-limit/windows.js';
import type { Logger } from '../core/logger.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  keys: KeyResolver;
  access: AccessMemory;
  rateLimits: RateLimitWindows;
  log: Logger;
}
