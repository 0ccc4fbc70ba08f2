// The header fields the API's checks add to a request's answer, kept per request (see http/answer-headers.ts).

/** The fields the API's checks add: Cache-Control, then the rate limit's two. */
export type AnswerField = 'cache-control' | 'ratelimit-policy' | 'ratelimit';

/**
 * The fields of one request, and the answer already built with them. One property per field, not an
 * object keyed by name: every answer then copies them with the same few monomorphic stores.
 */
export class AnswerHeaders {
  cacheControl: string | undefined = undefined;
  rateLimitPolicy: string | undefined = undefined;
  rateLimit: string | undefined = undefined;
  carriedBy: Response | undefined = undefined;

  /** The fields set, by lower-case name, in the order the answer carries them. */
  entries(): Array<[AnswerField, string]> {
    const entries: Array<[AnswerField, string]> = [];
    if (this.cacheControl !== undefined) entries.push(['cache-control', this.cacheControl]);
    if (this.rateLimitPolicy !== undefined) entries.push(['ratelimit-policy', this.rateLimitPolicy]);
    if (this.rateLimit !== undefined) entries.push(['ratelimit', this.rateLimit]);
    return entries;
  }
}
