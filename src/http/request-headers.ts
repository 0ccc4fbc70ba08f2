// Request header fields on the hot path, read where Node has parsed them already; and the request's connection.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The fields of which Node keeps only the first value, where Hono joins all of them (a repeated
 * Authorization then reads as one value, not a valid credential): these are read the way Hono reads them.
 */
const FIRST_VALUE_ONLY = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/**
 * A request header field by lower-case name, as `c.req.header` reads it. Served by Node, it comes from the
 * fields Node has parsed (values trimmed; CR, LF and NUL refused by its parser), which Hono would check
 * again on every call.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const fields = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.headers;
  if (fields === undefined) return c.req.header(name);
  const value = fields[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' && !FIRST_VALUE_ONLY.has(name) ? value : c.req.header(name);
}

/** The connection (socket) a request served by Node came on; undefined for one answered in-process. */
export const requestConnection = (c: Context): object | undefined =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
