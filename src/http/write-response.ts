// The response of a write, made inside the write's transaction from its result. For a POST with an
// Idempotency-Key (app/idempotency.ts) it is stored in that same transaction: a process that dies after
// the commit has stored the response already, and a retry replays it instead of writing again.
import type { Context } from 'hono';
import type { Database } from '../db/client.js';
import type { ApiEnv } from './env.js';

/** The last step of a write's transaction (access/audited-write.ts): `respond` to its result, stored with it. */
export const respondWithin =
  <T, R extends Response>(c: Context<ApiEnv>, respond: (result: T) => R) =>
  async (tx: Database, result: T): Promise<R> => {
    const response = respond(result);
    await c.get('storeResponse')?.(tx, response);
    return response;
  };
