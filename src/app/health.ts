// The health checks, for load balancers and process managers. GET /health: the process answers
// (liveness; no work). GET /health/ready: it can serve, because its database answers a statement
// (readiness); 503 not-ready otherwise. Neither needs a key nor counts against a rate limit.
import { Hono, type Context } from 'hono';
import { sql } from 'drizzle-orm';
import { json } from '../http/responses.js';
import type { AppDeps } from './deps.js';
import type { ApiEnv } from '../http/env.js';
import { HEALTH_PATH } from './guards.js';
import { ApiError } from '../http/problem.js';

/** A database that has not answered in this long is not ready (a load balancer gives up after a few seconds). */
const DATABASE_CHECK_TIMEOUT_MS = 2000;
const NO_STORE = { 'cache-control': 'no-store' };

type RedisState = 'redis' | 'memory-fallback' | 'not configured';

function redisState({ config, rateLimits }: AppDeps): RedisState {
  if (config.redisUrl === undefined) return 'not configured';
  return rateLimits.keptIn === 'redis' ? 'redis' : 'memory-fallback';
}

/** Whether the database answers `select 1` in time. Checks asked while one is out share it. */
function databaseCheck({ database }: AppDeps): () => Promise<boolean> {
  let pending: Promise<boolean> | undefined;
  const check = async () => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), DATABASE_CHECK_TIMEOUT_MS)));
    const answered = database.db.execute(sql`select 1`).then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answered, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };
  return () => (pending ??= check().finally(() => (pending = undefined)));
}

export function healthRoutes(deps: AppDeps, respond: (c: Context, error: ApiError) => Response) {
  const app = new Hono<ApiEnv>();
  const databaseResponds = databaseCheck(deps);
  app.get(HEALTH_PATH, (c) => json(c, { status: 'ok' }, 200, NO_STORE));
  app.get(`${HEALTH_PATH}/ready`, async (c) => {
    if (!(await databaseResponds())) {
      return respond(
        c,
        new ApiError('not-ready', 'The database does not answer: this process cannot serve requests now.', { headers: NO_STORE }),
      );
    }
    return json(c, { status: 'ready', database: 'ok', redis: redisState(deps) }, 200, NO_STORE);
  });
  return app;
}
