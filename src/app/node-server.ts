// The Node HTTP server of the app: @hono/node-server's request listener, with what it refuses to turn
// into a fetch Request (a backslash in the path, a Host field that is no host name: `new URL` throws)
// answered as problem+json like every other error, and Node's own refusals too (client-errors.ts).
// Left to @hono/node-server, such a request gets a 400 with no body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import { refuseClientErrors } from './client-errors.js';
import { ApiError, errorCodes, problemBody } from '../http/problem.js';

type Fetch = Parameters<typeof getRequestListener>[0];

/**
 * An HTTP server (not yet listening) that serves `fetch`; error types are under `errorsUrl`, and
 * `hostname` stands in for the Host field of a request without one (HTTP/1.0).
 */
export function createAppServer(fetch: Fetch, { errorsUrl, hostname }: { errorsUrl: string; hostname?: string }): Server {
  const listener = getRequestListener(fetch, {
    hostname,
    // Thrown on, to the listener's caller below, which has the request at hand. Anything else reaching
    // here is the app failing to answer (its onError answers every error): left to @hono/node-server.
    errorHandler: (error) => {
      if (error instanceof RequestError) throw error;
      return new Response(null, { status: 500 });
    },
  });
  const server = createServer((incoming, outgoing) => {
    listener(incoming, outgoing).catch((error: unknown) => {
      if (error instanceof RequestError && !outgoing.headersSent) refuse(incoming, outgoing, errorsUrl);
      else outgoing.destroy();
    });
  });
  refuseClientErrors(server, errorsUrl);
  return server;
}

/** 400 problem+json for a request that has no URL; the connection closes after it. */
function refuse(incoming: IncomingMessage, outgoing: ServerResponse, errorsUrl: string): void {
  const refusal = new ApiError('bad-request', 'The request target or its Host header field does not make a valid URL.');
  const [path = ''] = (incoming.url ?? '').split('?', 1);
  const body = JSON.stringify(problemBody(refusal, errorsUrl, path));
  // The request may have a body nobody will read: the connection ends with this answer.
  outgoing.writeHead(refusal.status, errorCodes[refusal.code].title, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  outgoing.end(body);
}
