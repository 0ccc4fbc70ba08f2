// The text of a request's body, as the first reader of it takes it. A client that goes away before
// its body is whole (the socket closed or reset, or its sending side shut) is the client's doing:
// a 400 to whoever is left, not a server fault, and the read never waits on a socket that is gone.
import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { ApiError } from './problem.js';

const cutOff = () => new ApiError('bad-request', 'The request body ended before it was complete.');

export function requestBodyText(c: Context): Promise<string> {
  // Served by Node: its request; answered in-process (app.request), no socket to lose.
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage) || incoming.complete) return c.req.text();
  // Gone before this read began: its close has been and gone.
  if (incoming.destroyed) return Promise.reject(cutOff());
  return new Promise<string>((resolve, reject) => {
    const closed = () => {
      if (!incoming.complete) reject(cutOff());
    };
    incoming.once('close', closed);
    c.req.text().then(
      (text) => {
        incoming.off('close', closed);
        resolve(text);
      },
      (error: unknown) => {
        incoming.off('close', closed);
        reject(incoming.complete ? error : cutOff());
      },
    );
  });
}
