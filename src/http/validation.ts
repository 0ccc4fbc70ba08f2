// Zod failures → 400 validation-failed with one `{ field, message }` per problem (the first
// MAX_LISTED_ERRORS of them, the rest counted); issues that a schema marks as semantic (see
// `unprocessable`) → 422 when they are the only ones.
import type { Hook } from '@hono/zod-openapi';
import type { ApiEnv } from './env.js';
import { z } from 'zod';
import { ApiError, describeErrors, MAX_LISTED_ERRORS, validationFailed, type FieldError } from './problem.js';

// Messages for a client, not a developer: a missing value is "is required", a value of another type says which
// type it must be. (Zod keeps the offending input only while it builds the message, so it is decided here.)
z.config({
  customError: (issue) => {
    if (issue.code !== 'invalid_type') return undefined;
    return issue.input === undefined ? 'is required' : `must be ${issue.expected === 'array' ? 'an array' : `a ${issue.expected}`}`;
  },
});

const TARGET_NAMES: Record<string, string> = { json: 'body', query: 'query', param: 'path', header: 'header', cookie: 'cookie' };

/** Params of a custom zod issue that is well-formed but semantically invalid (422, not 400). */
export const unprocessable = { unprocessable: true } as const;

const isUnprocessable = (issue: z.core.$ZodIssue) =>
  issue.code === 'custom' && (issue.params as { unprocessable?: boolean } | undefined)?.unprocessable === true;

/** The first MAX_LISTED_ERRORS errors, and how many more were found: a body of 400,000 unknown properties is one issue. */
class BoundedErrors {
  readonly listed: FieldError[] = [];
  omitted = 0;

  add(field: string, message: string): void {
    if (this.listed.length < MAX_LISTED_ERRORS) this.listed.push({ field, message });
    else this.omitted++;
  }
}

function addIssue(errors: BoundedErrors, issue: z.core.$ZodIssue, target: string): void {
  const base = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const listed = Math.min(issue.keys.length, Math.max(0, MAX_LISTED_ERRORS - errors.listed.length));
    for (const key of issue.keys.slice(0, listed)) errors.add(base ? `${base}.${key}` : key, 'is not a known property');
    errors.omitted += issue.keys.length - listed;
    return;
  }
  errors.add(base || TARGET_NAMES[target] || target, issue.message);
}

/** The error for a failed parse: 400, or 422 when every issue is semantic. */
export function validationError(error: z.ZodError, target: string): ApiError {
  const errors = new BoundedErrors();
  for (const issue of error.issues) addIssue(errors, issue, target);
  if (!error.issues.every(isUnprocessable)) return validationFailed(errors.listed, errors.omitted);
  return new ApiError('unprocessable-entity', describeErrors(errors.listed, errors.omitted), {
    errors: errors.listed,
    errorsOmitted: errors.omitted,
  });
}

/** Where in `value` a string (or a property name) holds U+0000, which PostgreSQL cannot store in text or jsonb. */
function fieldsWithNul(value: unknown, found: BoundedErrors): void {
  // A stack, not recursion: validated data can still nest deeply where a schema accepts any JSON.
  const stack: Array<[unknown, string]> = [[value, '']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.add(path, NUL_MESSAGE);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) found.add(childPath, NUL_MESSAGE);
        stack.push([child, childPath]);
      }
    }
  }
}

const NUL_MESSAGE = 'must not contain the character U+0000';

/** 400 when validated data of `target` holds U+0000 anywhere. */
function rejectNul(data: unknown, target: string): void {
  const found = new BoundedErrors();
  fieldsWithNul(data, found);
  if (found.listed.length) {
    const errors = found.listed.map(({ field, message }) => ({ field: field || TARGET_NAMES[target] || target, message }));
    throw validationFailed(errors, found.omitted);
  }
}

/** The defaultHook of every OpenAPI route. */
export const validationHook: Hook<unknown, ApiEnv, string, unknown> = (result) => {
  if (!result.success) throw validationError(result.error as z.ZodError, result.target);
  rejectNul(result.data, result.target);
};
