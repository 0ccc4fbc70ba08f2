// What a request carries through the API's middleware to its route (Hono's `c.get` / `c.set`).
import type { Principal } from '../core/principal.js';
import type { Database } from '../db/client.js';
import type { ResponseHeaderFields } from './response-header-fields.js';

export interface ApiEnv {
  Variables: {
    principal: Principal;
    /** See http/response-headers.ts. */
    responseHeaders?: ResponseHeaderFields;
    /** See app/request-log.ts. */
    requestId?: string;
    /** The error_id of the problem the request was answered with, for the request log. */
    errorId?: string;
    /** A POST with an Idempotency-Key: stores the response of its write in the write's transaction (http/write-response.ts). */
    storeResponse?: (tx: Database, response: Response) => Promise<void>;
  };
}
