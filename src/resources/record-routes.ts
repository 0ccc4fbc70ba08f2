// One way to write a record resource: list and create under a parent; get, change and delete one.
// Each builder adds one operation to an ApiRoutes, its OpenAPI description with it, and handles what
// every record shares: access (authorize), the audited write, ETag, If-None-Match and If-Match.
import { createRoute, type z } from '@hono/zod-openapi';
import { auditedWrite } from '../access/audited-write.js';
import { authorize, type Action, type ResourceKind } from '../access/roles.js';
import type { Precondition } from '../core/entity-tags.js';
import { notFound } from '../core/domain-errors.js';
import type { Database } from '../db/client.js';
import type { PageQuery } from '../db/paging.js';
import type { ApiRoutes } from '../http/api-routes.js';
import {
  etagHeader,
  ifMatch,
  ifMatchParameter,
  ifNoneMatchParameter,
  notModifiedResponse,
  readResponse,
  recordResponse,
} from '../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../http/openapi.js';
import { envelope, envelopeSchema } from '../http/pagination.js';
import type { ErrorCode } from '../http/problem.js';
import { json, noContent } from '../http/responses.js';
import { respondWithin } from '../http/write-response.js';
import { idParams, jsonContent, locationHeader } from '../http/route-helpers.js';

/** A path parameter that names a record, with its schema. */
export interface PathId<K extends string> {
  name: K;
  params: ReturnType<typeof idParams<K>>;
}

export const pathId = <K extends string>(name: K, description: string): PathId<K> => ({ name, params: idParams(name, description) });

/** The record a list or a creation is under (a farm, a field, a cultivation): its access kind and its identifier. */
export interface Parent<P extends string> {
  kind: ResourceKind;
  id: PathId<P>;
}

/** What the operations on one kind of record share. */
export interface RecordResource<K extends string, T extends Record<K, string>> extends Parent<K> {
  tags: string[];
  /** The record's path, ending in its identifier: /api/cultivations/{b_lu}. */
  path: string;
  schema: z.ZodType<T>;
}

/** The words of one operation in the OpenAPI document. */
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
}

/**
 * The identifier a route's path names, checked by its `params` schema. TypeScript cannot index zod's
 * output type with a generic key, so it is read as the string the schema made sure it is.
 */
const pathValue = <K extends string>(params: object, id: PathId<K>): string => (params as Record<K, string>)[id.name];

/** The route's words and security, in the order the OpenAPI document has always listed them. */
const described = (tags: string[], { operationId, summary, description }: Operation) => ({
  operationId,
  tags,
  summary,
  description,
  security: apiKeySecurity,
});

/** A list of records under a parent, one page at a time. */
export function listRecords<P extends string, Q extends PageQuery, T>(
  app: ApiRoutes,
  db: Database,
  spec: {
    tags: string[];
    path: string;
    parent: Parent<P>;
    operation: Operation;
    query: z.ZodObject & z.ZodType<Q>;
    item: z.ZodType<T>;
    /** The name of the page's schema, and the 200's description. */
    page: { name: string; description: string };
    /** Read by default; sharing needs share. */
    action?: Action;
    errors?: ErrorCode[];
    list: (db: Database, parentId: string, query: Q) => Promise<{ data: T[]; total: number }>;
  },
) {
  const route = createRoute({
    method: 'get',
    path: spec.path,
    ...described(spec.tags, spec.operation),
    request: { params: spec.parent.id.params, query: spec.query },
    responses: {
      200: { description: spec.page.description, content: jsonContent(envelopeSchema(spec.item, spec.page.name)) },
      ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', ...(spec.errors ?? [])),
    },
  });
  const { parent, list } = spec;
  const action = spec.action ?? 'read';
  app.openapi(route, async (c) => {
    const parentId = pathValue(c.req.valid('param'), parent.id);
    const query = c.req.valid('query');
    await authorize(db, c.get('principal'), parent.kind, parentId, action);
    const { data, total } = await list(db, parentId, query);
    return json(c, envelope(data, query, total), 200);
  });
}

/** The route of a read of one record: 200 with its ETag, or 304 when If-None-Match holds it. */
export function getRecordRoute<K extends string, T extends Record<K, string>>(
  resource: RecordResource<K, T>,
  operation: Operation,
  response: string,
) {
  return createRoute({
    method: 'get',
    path: resource.path,
    ...described(resource.tags, operation),
    request: { params: resource.id.params },
    parameters: [ifNoneMatchParameter],
    responses: {
      200: { description: response, headers: etagHeader, content: jsonContent(resource.schema) },
      ...notModifiedResponse,
      ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
    },
  });
}

/** A read of one record by whoever may read its farm. */
export function getRecord<K extends string, T extends Record<K, string>>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T>,
  spec: { operation: Operation; response: string; read: (db: Database, id: string) => Promise<T | undefined> },
) {
  const { kind, id } = resource;
  const { read } = spec;
  app.openapi(getRecordRoute(resource, spec.operation, spec.response), async (c) => {
    const recordId = pathValue(c.req.valid('param'), id);
    await authorize(db, c.get('principal'), kind, recordId, 'read');
    const record = await read(db, recordId);
    if (!record) throw notFound(`The ${kind} does not exist.`);
    return readResponse(c, record);
  });
}

/** A creation of a record under its parent, by whoever may write there: 201 with its ETag and Location. */
export function createRecord<P extends string, K extends string, I, T extends Record<K, string>>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T>,
  spec: {
    path: string;
    parent: Parent<P>;
    operation: Operation;
    body: z.ZodType<I>;
    response: string;
    errors: ErrorCode[];
    create: (tx: Database, parentId: string, input: I) => Promise<T>;
  },
) {
  const route = createRoute({
    method: 'post',
    path: spec.path,
    ...described(resource.tags, spec.operation),
    request: { params: spec.parent.id.params, body: { required: true, content: jsonContent(spec.body) } },
    responses: {
      201: { description: spec.response, headers: { ...locationHeader, ...etagHeader }, content: jsonContent(resource.schema) },
      ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', ...spec.errors),
    },
  });
  const { parent, create } = spec;
  const { kind, id } = resource;
  const placeholder = `{${id.name}}`;
  app.openapi(route, async (c) => {
    const parentId = pathValue(c.req.valid('param'), parent.id);
    const input = c.req.valid('json');
    return auditedWrite(
      db,
      c.get('principal'),
      { kind: parent.kind, id: parentId },
      (tx) => create(tx, parentId, input),
      { action: 'create', kind, id: (created) => created[id.name] },
      respondWithin(c, (record: T) => recordResponse(c, record, 201, { location: resource.path.replace(placeholder, record[id.name]) })),
    );
  });
}

/** A change of a record by whoever may write it, under If-Match. */
export function updateRecord<K extends string, B, T extends Record<K, string>>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T>,
  spec: {
    operation: Operation;
    body: z.ZodType<B>;
    response: string;
    errors?: ErrorCode[];
    update: (tx: Database, id: string, changes: B, precondition?: Precondition) => Promise<T>;
  },
) {
  const route = createRoute({
    method: 'patch',
    path: resource.path,
    ...described(resource.tags, spec.operation),
    request: { params: resource.id.params, body: { required: true, content: jsonContent(spec.body) } },
    parameters: [ifMatchParameter],
    responses: {
      200: { description: spec.response, headers: etagHeader, content: jsonContent(resource.schema) },
      ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', ...(spec.errors ?? []), 'precondition-failed'),
    },
  });
  const { kind, id } = resource;
  const { update } = spec;
  app.openapi(route, async (c) => {
    const recordId = pathValue(c.req.valid('param'), id);
    const changes = c.req.valid('json');
    const precondition = ifMatch(c);
    const record = await auditedWrite(db, c.get('principal'), { kind, id: recordId }, (tx) => update(tx, recordId, changes, precondition), {
      action: 'update',
      kind,
      id: recordId,
    });
    return recordResponse(c, record, 200);
  });
}

/** A delete of a record by whoever may write it, under If-Match: 204, then 404. */
export function deleteRecord<K extends string, T extends Record<K, string>>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T>,
  spec: { operation: Operation; errors?: ErrorCode[]; remove: (tx: Database, id: string, precondition?: Precondition) => Promise<void> },
) {
  const route = createRoute({
    method: 'delete',
    path: resource.path,
    ...described(resource.tags, spec.operation),
    request: { params: resource.id.params },
    parameters: [ifMatchParameter],
    responses: {
      204: { description: 'Deleted. A repeated delete answers 404.' },
      ...errorResponses(
        ...authenticatedErrors,
        ...bodyCheckErrors,
        'validation-failed',
        'not-found',
        'forbidden',
        ...(spec.errors ?? []),
        'precondition-failed',
      ),
    },
  });
  const { kind, id } = resource;
  const { remove } = spec;
  app.openapi(route, async (c) => {
    const recordId = pathValue(c.req.valid('param'), id);
    const precondition = ifMatch(c);
    await auditedWrite(db, c.get('principal'), { kind, id: recordId }, (tx) => remove(tx, recordId, precondition), {
      action: 'delete',
      kind,
      id: recordId,
    });
    return noContent(c);
  });
}

/** A record resource, its types read from its parts. */
export const recordResource = <K extends string, T extends Record<K, string>>(resource: RecordResource<K, T>) => resource;
