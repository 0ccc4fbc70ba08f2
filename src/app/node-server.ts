// The Node HTTP server of the app: @hono/node-server's request listener, with what it refuses to turn
// into a fetch Request (a backslash in the path, a Host field that is no host name: `new URL` throws)
// answered as problem+json like every other error, and Node's own refusals too (client-errors.ts).
// Left to @hono/node-server, such a request gets a 400 with no body. What answers hold in memory is
// bounded per connection (one answer at a time) and in all (held-answers.ts: one budget, and a client
// that stops reading is cut off), and a large answer is written a piece at a time (paced-response.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import { refuseClientErrors } from './client-errors.js';
import { HeldAnswers } from './held-answers.js';
import { PacedResponse } from './paced-response.js';
import { ApiError, errorCodes, problemBody } from '../http/problem.js';

type Fetch = Parameters<typeof getRequestListener>[0];

export interface AppServerOptions {
  /** Where the problem types are. */
  errorsUrl: string;
  /** Stands in for the Host field of a request without one (HTTP/1.0). */
  hostname?: string;
  /** How long an answer may make no progress towards its client before the connection is closed. */
  sendTimeoutSeconds: number;
  /** What the answers not yet taken by their clients may hold in all, bytes. */
  heldAnswersBytes: number;
}

/** An HTTP server (not yet listening) that serves `fetch`. */
export function createAppServer(fetch: Fetch, { errorsUrl, hostname, sendTimeoutSeconds, heldAnswersBytes }: AppServerOptions): Server {
  const held = new HeldAnswers({ budgetBytes: heldAnswersBytes, sendTimeoutMs: sendTimeoutSeconds * 1000 });
  const listener = getRequestListener(fetch, {
    hostname,
    // Thrown on, to the listener's caller below, which has the request at hand. Anything else reaching
    // here is the app failing to answer (its onError answers every error): left to @hono/node-server.
    errorHandler: (error) => {
      if (error instanceof RequestError) throw error;
      return new Response(null, { status: 500 });
    },
  });
  const serve = async (incoming: IncomingMessage, outgoing: PacedResponse) => {
    try {
      await listener(incoming, outgoing);
      held.handedOver(outgoing);
    } catch (error) {
      if (error instanceof RequestError && !outgoing.headersSent) refuse(incoming, outgoing, errorsUrl);
      else outgoing.destroy();
    }
  };
  // Node answers pipelined requests in order but hands them all to the app at once, each answer held
  // until the ones before it are sent: a connection's requests are served one after another instead,
  // the next when the answer before it is closed (sent, or its connection gone).
  const waiting = new WeakMap<Socket, Array<() => void>>();
  const startNext = (socket: Socket) => {
    const next = waiting.get(socket)?.shift();
    if (next) next();
    else waiting.delete(socket);
  };
  const server = createServer({ ServerResponse: PacedResponse }, (incoming, outgoing) => {
    const { socket } = incoming;
    const start = () => {
      outgoing.once('close', () => startNext(socket));
      void serve(incoming, outgoing);
    };
    const queue = waiting.get(socket);
    if (queue) queue.push(start);
    else {
      waiting.set(socket, []);
      start();
    }
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
