// A request a page cannot serve, told to the person in words (a forged form, a missing page…).
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export class PageError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly title: string,
    readonly explanation: string,
  ) {
    super(explanation);
  }
}

export const pageNotFound = (explanation: string) => new PageError(404, 'Page not found', explanation);
