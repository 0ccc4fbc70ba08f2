// The answers of the API's routes, built with the header fields middleware added (http/answer-headers.ts).
// They carry no field set through Hono (`c.header`, `setCookie`): a route that sets one answers with `c.json`.
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { answer } from './answer-headers.js';

type JsonAnswer<T, U extends ContentfulStatusCode> = Response & TypedResponse<JSONParsed<T>, U, 'json'>;

/** An answer of JSON in `mediaType`, typed as Hono's `c.json` answer; `own`: more header fields, by lower-case name. */
const jsonIn =
  (mediaType: string) =>
  <T, U extends ContentfulStatusCode>(c: Context, value: T, status: U, own?: Record<string, string>): JsonAnswer<T, U> =>
    answer(c, JSON.stringify(value), status, mediaType, own) as JsonAnswer<T, U>;

/** `value` as JSON. */
export const json = jsonIn('application/json');

/** `value` as GeoJSON (application/geo+json, RFC 7946). */
export const geoJson = jsonIn('application/geo+json');

/** 204 No Content. */
export const noContent = (c: Context) => answer(c, null, 204, undefined) as Response & TypedResponse<null, 204, 'body'>;
