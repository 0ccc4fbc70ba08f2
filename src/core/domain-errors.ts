// What the layers below HTTP (stores, access, calculations' loaders) raise when a request cannot be
// carried out. They know nothing of HTTP: the HTTP layer answers each with the problem of its code.

export type DomainErrorCode =
  'unauthorized' | 'forbidden' | 'not-found' | 'conflict' | 'precondition-failed' | 'unprocessable-entity' | 'cursor-expired';

/** A response, not a fault: it carries no stack trace (capturing one costs more than the rest of a 404). */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    readonly detail: string,
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export const notFound = (detail = 'The resource does not exist.') => new DomainError('not-found', detail);
