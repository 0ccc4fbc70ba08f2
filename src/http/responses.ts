// The responses of the API's routes, built with the header fields middleware added (http/response-headers.ts).
// They carry no field set through Hono (`c.header`, `setCookie`): a route that sets one answers with `c.json`.
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { apiResponse } from './response-headers.js';

type JsonResponse<T, U extends ContentfulStatusCode> = Response & TypedResponse<JSONParsed<T>, U, 'json'>;

/** A response of JSON in `mediaType`, typed as Hono's `c.json` answer; `own`: more header fields, by lower-case name. */
const jsonIn =
  (mediaType: string) =>
  <T, U extends ContentfulStatusCode>(c: Context, value: T, status: U, own?: Record<string, string>): JsonResponse<T, U> =>
    apiResponse(c, JSON.stringify(value), status, mediaType, own) as JsonResponse<T, U>;

/** `value` as JSON. */
export const json = jsonIn('application/json');

/** `value` as GeoJSON (application/geo+json, RFC 7946). */
export const geoJson = jsonIn('application/geo+json');

/** 204 No Content. */
export const noContent = (c: Context) => apiResponse(c, null, 204, undefined) as Response & TypedResponse<null, 204, 'body'>;
