// The answers of the API's routes, built with the header fields middleware added (http/answer-headers.ts).
// They carry no field set through Hono (`c.header`, `setCookie`): a route that sets one answers with `c.json`.
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { answer } from './answer-headers.js';

/** `value` as JSON, typed as Hono's `c.json` answer; `own`: more header fields, by lower-case name. */
export function json<T, U extends ContentfulStatusCode>(
  c: Context,
  value: T,
  status: U,
  own?: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, U, 'json'> {
  return answer(c, JSON.stringify(value), status, 'application/json', own) as Response & TypedResponse<JSONParsed<T>, U, 'json'>;
}

/** `value` as GeoJSON (application/geo+json, RFC 7946), typed as a JSON answer like `json`. */
export function geoJson<T, U extends ContentfulStatusCode>(
  c: Context,
  value: T,
  status: U,
  own?: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, U, 'json'> {
  return answer(c, JSON.stringify(value), status, 'application/geo+json', own) as Response & TypedResponse<JSONParsed<T>, U, 'json'>;
}

/** 204 No Content. */
export const noContent = (c: Context) => answer(c, null, 204, undefined) as Response & TypedResponse<null, 204, 'body'>;
