// Zod failures → 400 validation-failed with one `{ field, message }` per problem; issues that a
// schema marks as semantic (see `unprocessable`) → 422 when they are the only ones.
import type { Hook } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { z } from 'zod';
import { ApiError, validationFailed, type FieldError } from './problem.js';

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

function issueToFieldErrors(issue: z.core.$ZodIssue, target: string): FieldError[] {
  const base = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ field: base ? `${base}.${key}` : key, message: 'is not a known property' }));
  }
  return [{ field: base || TARGET_NAMES[target] || target, message: issue.message }];
}

export function zodFieldErrors(error: z.ZodError, target: string): FieldError[] {
  return error.issues.flatMap((issue) => issueToFieldErrors(issue, target));
}

/** The error for a failed parse: 400, or 422 when every issue is semantic. */
export function validationError(error: z.ZodError, target: string): ApiError {
  const errors = zodFieldErrors(error, target);
  if (!error.issues.every(isUnprocessable)) return validationFailed(errors);
  return new ApiError('unprocessable-entity', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });
}

/** Where in `value` a string (or a property name) holds U+0000, which PostgreSQL cannot store in text or jsonb. */
function fieldsWithNul(value: unknown): string[] {
  const found: string[] = [];
  // A stack, not recursion: validated data can still nest deeply where a schema accepts any JSON.
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push(path);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) found.push(childPath);
        stack.push([child, childPath]);
      }
    }
  }
  return found;
}

/** 400 when validated data of `target` holds U+0000 anywhere. */
function rejectNul(data: unknown, target: string): void {
  const withNul = fieldsWithNul(data);
  if (withNul.length) {
    throw validationFailed(
      withNul.map((field) => ({ field: field || TARGET_NAMES[target] || target, message: 'must not contain the character U+0000' })),
    );
  }
}

/** The defaultHook of every OpenAPI route. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw validationError(result.error as z.ZodError, result.target);
  rejectNul(result.data, result.target);
};
