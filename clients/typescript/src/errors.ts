// An error answer of the API, thrown where a call cannot hand it back (paging).
import type { components } from './openapi.js';

/** The problem+json body every error answer of the API carries, as the OpenAPI document describes it. */
export type Problem = components['schemas']['Problem'];

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' && body !== null && typeof (body as Problem).type === 'string' && typeof (body as Problem).status === 'number';

export class AkkerError extends Error {
  readonly status: number;
  /** The problem the API answered, when the answer was one. */
  readonly problem: Problem | undefined;

  constructor(
    readonly response: Response,
    body: unknown,
  ) {
    const problem = isProblem(body) ? body : undefined;
    super(problem ? `${response.status} ${problem.title}: ${problem.detail} (${problem.error_id})` : `HTTP ${response.status}`);
    this.name = 'AkkerError';
    this.status = response.status;
    this.problem = problem;
  }
}
