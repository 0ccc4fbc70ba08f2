// One way to write a record resource: list and create under a parent; get, change and delete one.
// Each builder adds one operation to an ApiRoutes, its OpenAPI description with it, and handles what
// every record shares: access (authorize), the audited write, ETag, If-None-Match and If-Match. The
// operation's id and its responses' descriptions follow from the resource's names (record-resource.ts);
// an operation states them only where it says something else.
import { createRoute, type z } from '@hono/zod-openapi';
import { auditedWrite } from '../access/audited-write.js';
import { servedOnRememberedKey } from '../access/remembered-key-routes.js';
import { authorize, authorizedList, type Action } from '../access/roles.js';
import type { Precondition } from '../core/entity-tags.js';
import { notFound } from '../core/domain-errors.js';
import type { Database, DatabaseHandle } from '../db/client.js';
import type { PageGate, PageQuery } from '../db/paging.js';
import { ApiRoutes } from '../http/api-routes.js';
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
import { envelope, pageResponses } from '../http/pagination.js';
import type { ErrorCode } from '../http/problem.js';
import { json, noContent } from '../http/responses.js';
import { respondWithin } from '../http/write-response.js';
import { jsonContent, locationHeader } from '../http/route-helpers.js';
import type { Listed, PathId, RecordResource } from './record-resource.js';

/** The words of one operation in the OpenAPI document; its operationId follows from the names unless given. */
export interface Described {
  summary: string;
  description?: string;
  operationId?: string;
}

export interface ListOperation<Q extends PageQuery, T> extends Described {
  query: z.ZodObject & z.ZodType<Q>;
  /** Read by default; sharing needs share. */
  action?: Action;
  errors?: ErrorCode[];
  /**
   * The page, read through `gate` (`selectPage` takes it) so that one statement reads the page and settles
   * the caller's access; a list whose read does not take it is authorized after its read.
   */
  list: (db: Database, parentId: string, query: Q, gate: PageGate) => Promise<{ data: T[]; total: number }>;
}

export interface CreateOperation<I, T> extends Described {
  body: z.ZodType<I>;
  /** The 201's description; by default 'The <one>.' */
  response?: string;
  errors?: ErrorCode[];
  create: (tx: Database, parentId: string, input: I) => Promise<T>;
}

export interface GetOperation<T, G extends object = object> extends Described {
  /** The read's query parameters, if it takes any. */
  query?: z.ZodObject & z.ZodType<G>;
  read: (db: Database, id: string, query: G) => Promise<T | undefined>;
}

export interface UpdateOperation<B, T> extends Described {
  body: z.ZodType<B>;
  /** The 200's description; by default 'The <one> after the change.' */
  response?: string;
  errors?: ErrorCode[];
  update: (tx: Database, id: string, changes: B, precondition?: Precondition) => Promise<T>;
}

export interface DeleteOperation extends Described {
  errors?: ErrorCode[];
  remove: (tx: Database, id: string, precondition?: Precondition) => Promise<void>;
}

/**
 * The identifier a route's path names, checked by its `params` schema. TypeScript cannot index zod's
 * output type with a generic key, so it is read as the string the schema made sure it is.
 */
const pathValue = <K extends string>(params: object, id: PathId<K>): string => (params as Record<K, string>)[id.name];

/** The operation's method, path, words and security, in the order the OpenAPI document has always listed them. */
const operation = <M extends string>(
  method: M,
  path: string,
  tags: string[],
  operationId: string,
  { summary, description }: Described,
) => ({
  method,
  path,
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
  listed: Listed<P, T>,
  spec: ListOperation<Q, T>,
) {
  const { names, parent } = listed;
  const route = createRoute({
    ...operation('get', listed.listPath, names.tags, spec.operationId ?? `list${names.types}Of${parent.names.type}`, spec),
    request: { params: parent.id.params, query: spec.query },
    responses: pageResponses(`One page of ${names.many}.`, listed.schema, names.page, 'not-found', ...(spec.errors ?? [])),
  });
  const { list } = spec;
  const action = spec.action ?? 'read';
  app.openapi(route, async (c) => {
    const parentId = pathValue(c.req.valid('param'), parent.id);
    const query = c.req.valid('query');
    const { data, total } = await authorizedList(db, c.get('principal'), parent.kind, parentId, action, (gate) =>
      list(db, parentId, query, gate),
    );
    return json(c, envelope(data, query, total), 200);
  });
}

/** The route of a read of one record: 200 with its ETag, or 304 when If-None-Match holds it. */
export function getRecordRoute<K extends string, T extends Record<K, string>>(
  resource: RecordResource<K, T>,
  spec: Described & { query?: z.ZodObject },
) {
  const { names } = resource;
  return createRoute({
    ...operation('get', resource.path, names.tags, spec.operationId ?? `get${names.type}`, spec),
    request: { params: resource.id.params, ...(spec.query && { query: spec.query }) },
    parameters: [ifNoneMatchParameter],
    responses: {
      200: { description: `The ${names.one}.`, headers: etagHeader, content: jsonContent(resource.schema) },
      ...notModifiedResponse,
      ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
    },
  });
}

/** A read of one record by whoever may read its farm. */
function getRecord<K extends string, T extends Record<K, string>, G extends object>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T>,
  spec: GetOperation<T, G>,
) {
  const { kind, id } = resource;
  const { read } = spec;
  app.openapi(getRecordRoute(resource, spec), async (c) => {
    const recordId = pathValue(c.req.valid('param'), id);
    // Checked by spec.query when there is one; a read without one takes no query.
    const query = (c.req.valid('query' as never) ?? {}) as G;
    await authorize(db, c.get('principal'), kind, recordId, 'read');
    const record = await read(db, recordId, query);
    if (!record) throw notFound(`The ${kind} does not exist.`);
    return readResponse(c, record);
  });
}

/** A creation of a record under its parent, by whoever may write there: 201 with its ETag and Location. */
function createRecord<P extends string, K extends string, I, T extends Record<K, string>>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T> & Listed<P, T>,
  spec: CreateOperation<I, T>,
) {
  const { names, parent } = resource;
  const route = createRoute({
    ...operation('post', resource.listPath, names.tags, spec.operationId ?? `create${names.type}On${parent.names.type}`, spec),
    request: { params: parent.id.params, body: { required: true, content: jsonContent(spec.body) } },
    responses: {
      201: {
        description: spec.response ?? `The ${names.one}.`,
        headers: { ...locationHeader, ...etagHeader },
        content: jsonContent(resource.schema),
      },
      ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', ...(spec.errors ?? [])),
    },
  });
  const { create } = spec;
  const { kind, id } = resource;
  const placeholder = `{${id.name}}`;
  app.openapi(
    route,
    servedOnRememberedKey(async (c) => {
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
    }),
  );
}

/** A change of a record by whoever may write it, under If-Match. */
export function updateRecord<K extends string, B, T extends Record<K, string>>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T>,
  spec: UpdateOperation<B, T>,
) {
  const { names } = resource;
  const route = createRoute({
    ...operation('patch', resource.path, names.tags, spec.operationId ?? `update${names.type}`, spec),
    request: { params: resource.id.params, body: { required: true, content: jsonContent(spec.body) } },
    parameters: [ifMatchParameter],
    responses: {
      200: {
        description: spec.response ?? `The ${names.one} after the change.`,
        headers: etagHeader,
        content: jsonContent(resource.schema),
      },
      ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', ...(spec.errors ?? []), 'precondition-failed'),
    },
  });
  const { kind, id } = resource;
  const { update } = spec;
  app.openapi(
    route,
    servedOnRememberedKey(async (c) => {
      const recordId = pathValue(c.req.valid('param'), id);
      const changes = c.req.valid('json');
      const precondition = ifMatch(c);
      const record = await auditedWrite(
        db,
        c.get('principal'),
        { kind, id: recordId },
        (tx) => update(tx, recordId, changes, precondition),
        {
          action: 'update',
          kind,
          id: recordId,
        },
      );
      return recordResponse(c, record, 200);
    }),
  );
}

/** A delete of a record by whoever may write it, under If-Match: 204, then 404. */
export function deleteRecord<K extends string, T extends Record<K, string>>(
  app: ApiRoutes,
  db: Database,
  resource: RecordResource<K, T>,
  spec: DeleteOperation,
) {
  const route = createRoute({
    ...operation('delete', resource.path, resource.names.tags, spec.operationId ?? `delete${resource.names.type}`, spec),
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
  app.openapi(
    route,
    servedOnRememberedKey(async (c) => {
      const recordId = pathValue(c.req.valid('param'), id);
      const precondition = ifMatch(c);
      await auditedWrite(db, c.get('principal'), { kind, id: recordId }, (tx) => remove(tx, recordId, precondition), {
        action: 'delete',
        kind,
        id: recordId,
      });
      return noContent(c);
    }),
  );
}

/** The operations of one record resource, each where it has it; they are added in this order. */
export interface RecordOperations<Q extends PageQuery, I, B, T, G extends object = object> {
  list?: ListOperation<Q, T>;
  create?: CreateOperation<I, T>;
  get?: GetOperation<T, G>;
  update?: UpdateOperation<B, T>;
  delete?: DeleteOperation;
}

/** Adds a record resource's operations to `app`, after any it has of its own. */
export function addRecordRoutes<
  P extends string,
  K extends string,
  Q extends PageQuery,
  I,
  B,
  T extends Record<K, string>,
  G extends object,
>(app: ApiRoutes, db: Database, resource: RecordResource<K, T> & Listed<P, T>, operations: RecordOperations<Q, I, B, T, G>) {
  if (operations.list) listRecords(app, db, resource, operations.list);
  if (operations.create) createRecord(app, db, resource, operations.create);
  if (operations.get) getRecord(app, db, resource, operations.get);
  if (operations.update) updateRecord(app, db, resource, operations.update);
  if (operations.delete) deleteRecord(app, db, resource, operations.delete);
  return app;
}

/** The routes of a record resource, mounted by app.ts with the database. */
export const recordRoutes =
  <P extends string, K extends string, Q extends PageQuery, I, B, T extends Record<K, string>>(
    resource: RecordResource<K, T> & Listed<P, T>,
    operations: RecordOperations<Q, I, B, T>,
  ) =>
  (database: DatabaseHandle) =>
    addRecordRoutes(new ApiRoutes(), database.db, resource, operations);
