// The network address a request came from: the socket's peer, or, behind a trusted reverse proxy, the
// client that proxy names in X-Forwarded-For.
import { isIP, type BlockList } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { requestHeader } from '../http/request-headers.js';

const isListed = (list: BlockList, address: string) => {
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 6 ? 'ipv6' : 'ipv4');
};

/**
 * The client, when the peer is a trusted proxy: each proxy appends the address it was reached from to
 * X-Forwarded-For, so the list is read from its right end, past the trusted proxies, to the first hop
 * that is not one. Anything left of that hop was written by the client and proves nothing. A hop that
 * is no IP address ends the reading. Any other peer's header is ignored: anyone can send one.
 */
export function forwardedClient(peer: string, forwardedFor: string | undefined, trusted: BlockList | null): string {
  if (trusted === null || forwardedFor === undefined || !isListed(trusted, peer)) return peer;
  let client = peer;
  for (const written of forwardedFor.split(',').reverse()) {
    const hop = written.trim();
    if (isIP(hop) === 0) break;
    client = hop;
    if (!isListed(trusted, hop)) break;
  }
  return client;
}

/**
 * The address of the request's client: the connection's peer, or behind the reverse proxies of
 * `trusted` (TRUST_PROXY), the client they forwarded. Requests that did not come through a socket
 * (tests calling `app.request`) share the address `unknown`.
 */
export function clientAddress(c: Context, trusted: BlockList | null): string {
  const env = c.env as { incoming?: unknown; server?: unknown } | undefined;
  if (!env?.incoming && !env?.server) return 'unknown';
  const peer = getConnInfo(c).remote.address ?? 'unknown';
  return forwardedClient(peer, requestHeader(c, 'x-forwarded-for'), trusted);
}
