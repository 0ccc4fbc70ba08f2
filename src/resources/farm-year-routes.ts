// A farm's records of one calendar year each (its derogations, its grazing intentions): listed under
// the farm, made or kept by a PUT of the year (201 when it made the record, 200 otherwise) and removed
// by a DELETE of it. Each write is a write to the farm, audited as the record's kind and its year.
import { createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { auditedWrite } from '../access/audited-write.js';
import type { AuditAction, AuditedKind } from '../access/audit.js';
import type { Precondition } from '../core/entity-tags.js';
import type { Database, DatabaseHandle } from '../db/client.js';
import type { PageQuery } from '../db/paging.js';
import { ApiRoutes } from '../http/api-routes.js';
import type { ApiEnv } from '../http/env.js';
import { etagHeader, ifMatch, ifMatchParameter, recordResponse } from '../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../http/openapi.js';
import { pageQuerySchema } from '../http/pagination.js';
import { validationFailed } from '../http/problem.js';
import { noContent } from '../http/responses.js';
import { jsonContent } from '../http/route-helpers.js';
import type { farmYearParams } from './farm-years.js';
import type { Listed } from './record-resource.js';
import { listRecords, type Described, type ListOperation } from './record-routes.js';

/** A farm's records of one year each, listed under it; their kind names them in the audit trail. */
type FarmYears<T> = Listed<'b_id_farm', T> & { kind: AuditedKind };

/** Path parameters b_id_farm and year. */
type YearParams = ReturnType<typeof farmYearParams>;

/** What a PUT did: made the record (create), changed it, or left it as it was (null: no audit entry). */
interface Put<T> {
  record: T;
  change: AuditAction | null;
}

interface PutWords extends Described {
  operationId: string;
  /** The 200's description: the record as the farm had it already, or changed. */
  kept: string;
}

/** A PUT with a body (the year's value), or without one (the record is the year itself). */
type PutOperation<I, T> = PutWords &
  (
    | { body: z.ZodType<I>; put: (tx: Database, farmId: string, year: number, input: I) => Promise<Put<T>> }
    | { body?: undefined; put: (tx: Database, farmId: string, year: number) => Promise<Put<T>> }
  );

interface DeleteOperation extends Described {
  operationId: string;
  /** The 204's description. */
  response: string;
  remove: (tx: Database, farmId: string, year: number, precondition?: Precondition) => Promise<void>;
}

/**
 * The body of a PUT whose record is the year itself: none (an empty body, whatever its Content-Type) or
 * `{}`. A member is refused as on every other body, so that a client's mistake is not stored as a year.
 */
async function assertNoMembers(c: Context<ApiEnv>): Promise<void> {
  const text = (await c.req.text()).trim();
  if (text === '' || text === '{}') return;
  let members: string[];
  try {
    const body: unknown = JSON.parse(text);
    members = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : ['(not an object)'];
  } catch {
    throw validationFailed([{ field: 'body', message: 'is not valid JSON' }]);
  }
  throw validationFailed(members.map((member) => ({ field: member, message: 'is not a known property: this PUT takes no body' })));
}

function addPut<I, T>(app: ApiRoutes, db: Database, years: FarmYears<T>, params: YearParams, spec: PutOperation<I, T>) {
  const { names, schema, kind } = years;
  const operation = {
    method: 'put' as const,
    path: `${years.listPath}/{year}`,
    operationId: spec.operationId,
    tags: names.tags,
    summary: spec.summary,
    description: spec.description,
    security: apiKeySecurity,
  };
  const responses = {
    200: { description: spec.kept, headers: etagHeader, content: jsonContent(schema) },
    201: { description: `The ${names.one}, recorded now.`, headers: etagHeader, content: jsonContent(schema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden'),
  };
  const respond = async (c: Context<ApiEnv>, farmId: string, year: number, put: (tx: Database) => Promise<Put<T>>) => {
    const { record, change } = await auditedWrite(db, c.get('principal'), { kind: 'farm', id: farmId }, put, {
      action: (done) => done.change,
      kind,
      id: String(year),
    });
    return change === 'create' ? recordResponse(c, record, 201) : recordResponse(c, record, 200);
  };
  // Two routes, for hono types the valid JSON of a route that has a body only.
  if (spec.body) {
    const { body, put } = spec;
    const route = createRoute({ ...operation, request: { params, body: { required: true, content: jsonContent(body) } }, responses });
    app.openapi(route, async (c) => {
      const { b_id_farm, year } = c.req.valid('param');
      const input = c.req.valid('json');
      return respond(c, b_id_farm, year, (tx) => put(tx, b_id_farm, year, input));
    });
  } else {
    const { put } = spec;
    app.openapi(createRoute({ ...operation, request: { params }, responses }), async (c) => {
      const { b_id_farm, year } = c.req.valid('param');
      await assertNoMembers(c);
      return respond(c, b_id_farm, year, (tx) => put(tx, b_id_farm, year));
    });
  }
}

function addDelete<T>(app: ApiRoutes, db: Database, years: FarmYears<T>, params: YearParams, spec: DeleteOperation) {
  const route = createRoute({
    method: 'delete',
    path: `${years.listPath}/{year}`,
    operationId: spec.operationId,
    tags: years.names.tags,
    summary: spec.summary,
    description: spec.description,
    security: apiKeySecurity,
    request: { params },
    parameters: [ifMatchParameter],
    responses: {
      204: { description: spec.response },
      ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
    },
  });
  const { kind } = years;
  const { remove } = spec;
  app.openapi(route, async (c) => {
    const { b_id_farm, year } = c.req.valid('param');
    const precondition = ifMatch(c);
    await auditedWrite(db, c.get('principal'), { kind: 'farm', id: b_id_farm }, (tx) => remove(tx, b_id_farm, year, precondition), {
      action: 'delete',
      kind,
      id: String(year),
    });
    return noContent(c);
  });
}

/** The routes of a farm's records of a year: the list (a plain page), the PUT and, where it has one, the DELETE. */
export const farmYearRoutes =
  <I, T>(
    years: FarmYears<T>,
    params: YearParams,
    operations: { list: Omit<ListOperation<PageQuery, T>, 'query'>; put: PutOperation<I, T>; delete?: DeleteOperation },
  ) =>
  (database: DatabaseHandle) => {
    const app = new ApiRoutes();
    listRecords(app, database.db, years, { ...operations.list, query: pageQuerySchema });
    addPut(app, database.db, years, params, operations.put);
    if (operations.delete) addDelete(app, database.db, years, params, operations.delete);
    return app;
  };
