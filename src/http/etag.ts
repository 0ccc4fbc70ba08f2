// Conditional requests on single records: ETag on every response with a record, 304 for a matching
// If-None-Match on a read, and If-Match read for the write to check (resources/entity-tags.ts).
import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import { entityTagOfJson, type Precondition } from '../core/entity-tags.js';
import { apiResponse } from './response-headers.js';
import { validationFailed } from './problem.js';
import { requestHeader } from './request-headers.js';

// One element of a list of entity tags: optional W/, a quoted tag of visible characters, then a comma or the end.
const LIST_ELEMENT = /[ \t]*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")[ \t]*(?:,|$)/y;

/** The tags of an If-Match or If-None-Match field: `*`, or the tags as sent; undefined when absent; 400 when malformed. */
function tagList(c: Context, name: 'if-match' | 'if-none-match'): Precondition | undefined {
  const value = requestHeader(c, name);
  if (value === undefined) return undefined;
  if (value.trim() === '*') return '*';
  const malformed = () =>
    validationFailed([
      {
        field: name === 'if-match' ? 'If-Match' : 'If-None-Match',
        message: 'must be * or a comma-separated list of quoted entity tags, as ETag gives them',
      },
    ]);
  const tags: string[] = [];
  LIST_ELEMENT.lastIndex = 0;
  while (LIST_ELEMENT.lastIndex < value.length) {
    const match = LIST_ELEMENT.exec(value);
    if (!match) throw malformed();
    tags.push((match[1] ?? '') + match[2]);
  }
  // An empty field would match nothing, silently: a client that sends one has lost its tag.
  if (tags.length === 0) throw malformed();
  return tags;
}

/** What the If-Match field of a PATCH or DELETE asks; undefined without one. */
export const ifMatch = (c: Context): Precondition | undefined => tagList(c, 'if-match');

/** If-None-Match compares weakly: W/"x" matches "x". */
function noneMatch(c: Context, tag: string): boolean {
  const tags = tagList(c, 'if-none-match');
  if (tags === undefined) return true;
  if (tags === '*') return false;
  return !tags.some((sent) => (sent.startsWith('W/') ? sent.slice(2) : sent) === tag);
}

type JsonResponse<T, S extends 200 | 201> = Response & TypedResponse<JSONParsed<T>, S, 'json'>;
type NotModified = Response & TypedResponse<null, 304, 'body'>;

/** A record with its ETag (the response of a read, a change or a creation). */
export function recordResponse<T, S extends 200 | 201>(c: Context, record: T, status: S, own?: Record<string, string>): JsonResponse<T, S> {
  const json = JSON.stringify(record);
  return apiResponse(c, json, status, 'application/json', { ...own, etag: entityTagOfJson(json) }) as JsonResponse<T, S>;
}

/** The response of a read: the record with its ETag, or 304 with the ETag alone when If-None-Match holds it. */
export function readResponse<T>(c: Context, record: T): JsonResponse<T, 200> | NotModified {
  const json = JSON.stringify(record);
  const tag = entityTagOfJson(json);
  if (!noneMatch(c, tag)) return apiResponse(c, null, 304, undefined, { etag: tag }) as NotModified;
  return apiResponse(c, json, 200, 'application/json', { etag: tag }) as JsonResponse<T, 200>;
}

const tagHeader = (description: string) => ({
  ETag: { schema: { type: 'string' as const, example: '"q0Zl3xYf8cTn2WbJ5kRsE7uVhA9dGmP1oLzC4iNwB6y"' }, description },
});

/** The ETag header of a response with a record. */
export const etagHeader = tagHeader('Strong entity tag of the record in this answer; send it back in If-Match or If-None-Match.');

/** The 304 of a read. */
export const notModifiedResponse = {
  304: { description: 'Not Modified: the record still has an entity tag you sent in If-None-Match. No body.', headers: etagHeader },
};

const tagParameter = (name: 'If-Match' | 'If-None-Match', description: string) => ({
  name,
  in: 'header' as const,
  required: false,
  description,
  schema: { type: 'string' as const, example: '"q0Zl3xYf8cTn2WbJ5kRsE7uVhA9dGmP1oLzC4iNwB6y"' },
});

/** The request header of a read. */
export const ifNoneMatchParameter = tagParameter(
  'If-None-Match',
  'Entity tags you hold (or *): when the record still has one of them, the answer is 304 without a body.',
);

/** The request header of a PATCH or DELETE. */
export const ifMatchParameter = tagParameter(
  'If-Match',
  'Entity tags you hold (or * for any): the change is made only if the record still has one of them, checked atomically with the change; otherwise 412 precondition-failed and nothing changes.',
);
