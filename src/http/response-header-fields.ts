// The header fields the API's checks add to a request's answer, kept per request (see http/response-headers.ts).

/**
 * On every response of the API: a browser must take a body for the type it is declared as, never guess
 * (a JSON answer echoing input must not be run as a page or a script).
 */
export const NOSNIFF: readonly [string, string] = ['x-content-type-options', 'nosniff'];

/** The fields the API's checks add: Cache-Control, then the rate limit's two. */
export type ResponseHeaderName = 'cache-control' | 'ratelimit-policy' | 'ratelimit';

/**
 * The fields of one request, and the response already built with them; one property per field
 * (docs/performance.md).
 */
export class ResponseHeaderFields {
  /** X-Request-Id (app/request-log.ts), which writes it onto a response not built with it. */
  requestId: string | undefined = undefined;
  cacheControl: string | undefined = undefined;
  rateLimitPolicy: string | undefined = undefined;
  rateLimit: string | undefined = undefined;
  carriedBy: Response | undefined = undefined;

  /** The fields set, by lower-case name, in the order the response carries them, and X-Content-Type-Options. */
  entries(): Array<readonly [string, string]> {
    const entries: Array<readonly [string, string]> = [NOSNIFF];
    if (this.cacheControl !== undefined) entries.push(['cache-control', this.cacheControl]);
    if (this.rateLimitPolicy !== undefined) entries.push(['ratelimit-policy', this.rateLimitPolicy]);
    if (this.rateLimit !== undefined) entries.push(['ratelimit', this.rateLimit]);
    return entries;
  }
}
