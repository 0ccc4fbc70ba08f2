// The network address a request came from, as the socket saw it.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The peer address of the connection. Behind a reverse proxy this is the
 * proxy's address: forwarded headers are not trusted, since any client can
 * send them. Requests that did not come through a socket (tests calling
 * `app.request`) share the address `unknown`.
 */
export function clientAddress(c: Context): string {
  const env = c.env as { incoming?: unknown; server?: unknown } | undefined;
  if (!env?.incoming && !env?.server) return 'unknown';
  return getConnInfo(c).remote.address ?? 'unknown';
}
