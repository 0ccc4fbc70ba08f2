// Judges one response: no 5xx, a documented status, the documented media type and schema, and a
// problem body with exactly the documented members.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { errorCodes } from '../../src/http/problem.js';
import type { OpenApiDocument, Operation } from './openapi.js';
import type { FuzzRequest } from './requests.js';

const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'instance', 'error_id'];
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const mediaTypeOf = (header: string | null) => header?.split(';')[0]!.trim().toLowerCase();

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    addFormats.default(this.ajv);
    // The document is one schema resource: `#/components/...` refs inside it resolve against it.
    this.ajv.addSchema(doc as object, 'openapi');
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) this.validators.set(pointer, (validate = this.ajv.compile({ $ref: `openapi${pointer}` })));
    return validate;
  }

  /** Every way the response breaks the contract; empty when it keeps it. */
  async check(operation: Operation, request: FuzzRequest, response: Response): Promise<string[]> {
    const problems: string[] = [];
    const { status } = response;
    const text = await response.text();
    if (status >= 500) problems.push(`server error ${status}`);
    if (request.expectStatus !== undefined && status !== request.expectStatus)
      problems.push(`status ${status}, expected ${request.expectStatus}`);
    if (request.forbidStatus === status) problems.push(`status ${status} for a request that must not get it`);

    const documented = operation.spec.responses[String(status)] ?? operation.spec.responses.default;
    if (!documented) return [...problems, `status ${status} is not documented for ${operation.method} ${operation.path}`];
    const mediaType = mediaTypeOf(response.headers.get('content-type'));
    const content = documented.content ?? {};
    if (Object.keys(content).length === 0) {
      if (text !== '' && request.method !== 'HEAD') problems.push(`a body on a response documented without one: ${text.slice(0, 200)}`);
      return problems;
    }
    if (mediaType === undefined || !(mediaType in content)) {
      return [...problems, `content type ${mediaType} is not documented (${Object.keys(content).join(', ')})`];
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [...problems, `the body is not JSON: ${text.slice(0, 200)}`];
    }
    const validate = this.validator(`${operation.pointer}/responses/${status}/content/${escapePointer(mediaType)}/schema`);
    if (!validate(body)) {
      problems.push(`the body does not match its schema: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
    }
    if (status >= 400) problems.push(...problemMembers(body, status, response.headers.get('content-type')));
    return problems;
  }
}

/** The documented problem members, each with the right value, and no others (but `errors` and `errors_omitted`). */
function problemMembers(body: unknown, status: number, contentType: string | null): string[] {
  const problems: string[] = [];
  if (contentType !== 'application/problem+json') problems.push(`an error with content type ${contentType}`);
  if (typeof body !== 'object' || body === null) return [...problems, 'the problem is not an object'];
  const problem = body as Record<string, unknown>;
  const missing = PROBLEM_MEMBERS.filter((member) => !(member in problem));
  if (missing.length) problems.push(`the problem lacks ${missing.join(', ')}`);
  const extra = Object.keys(problem).filter(
    (member) => !PROBLEM_MEMBERS.includes(member) && member !== 'errors' && member !== 'errors_omitted',
  );
  if (extra.length) problems.push(`the problem has other members: ${extra.join(', ')}`);
  if (problem.status !== status) problems.push(`problem status ${String(problem.status)} on an HTTP ${status}`);
  const code = typeof problem.type === 'string' ? /\/errors\/([a-z-]+)$/.exec(problem.type)?.[1] : undefined;
  const known = code !== undefined && code in errorCodes ? errorCodes[code as keyof typeof errorCodes] : undefined;
  if (!known) problems.push(`problem type ${String(problem.type)} is not {errors_url}/<known code>`);
  else if (known.status !== status) problems.push(`error code ${code} on an HTTP ${status}`);
  if (typeof problem.error_id !== 'string' || !/^[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(problem.error_id))
    problems.push(`error_id ${String(problem.error_id)}`);
  if (typeof problem.instance !== 'string' || !problem.instance.startsWith('/')) problems.push(`instance ${String(problem.instance)}`);
  for (const member of ['title', 'detail'])
    if (typeof problem[member] !== 'string' || problem[member] === '') problems.push(`problem ${member} is not a text`);
  return problems;
}
