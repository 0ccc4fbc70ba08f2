// The typed client: openapi-fetch over the generated types, with the API key set on every request and
// the retries of retrying-fetch.ts.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './openapi.js';
import { retryingFetch, type RetryOptions } from './retrying-fetch.js';

export interface AkkerClientOptions extends RetryOptions {
  /** Where the API is, e.g. `https://akker.example.org` (its paths start with /api). */
  baseUrl: string;
  /** An API key, sent as X-API-Key. */
  apiKey: string;
  /** The fetch to send requests with (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

// The media types answers are typed by: of an answer documented in two (the field list), the one asked for.
type JsonMedia = 'application/json' | 'application/problem+json';
type GeoJsonMedia = 'application/geo+json' | 'application/problem+json';

/** Successes typed as their application/json content, errors as their problem+json. */
export type AkkerClient = Client<paths, JsonMedia>;
/** Successes typed as their application/geo+json content, errors as their problem+json. */
export type AkkerGeoJsonClient = Client<paths, GeoJsonMedia>;

function clientOptions(options: AkkerClientOptions, accept: string): ClientOptions {
  const { baseUrl, apiKey, fetch = globalThis.fetch, ...retries } = options;
  return { baseUrl, headers: { 'X-API-Key': apiKey, Accept: accept }, fetch: retryingFetch(fetch, retries) };
}

export function createAkkerClient(options: AkkerClientOptions): AkkerClient {
  return createClient<paths, JsonMedia>(clientOptions(options, 'application/json'));
}

/** A client that asks for GeoJSON: for `GET /api/farms/{b_id_farm}/fields`, a FeatureCollection of the page. */
export function createGeoJsonClient(options: AkkerClientOptions): AkkerGeoJsonClient {
  return createClient<paths, GeoJsonMedia>(clientOptions(options, 'application/geo+json'));
}
