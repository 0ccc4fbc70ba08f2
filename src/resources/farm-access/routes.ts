// HTTP for sharing a farm: list, grant or change, and remove roles (owners only).
import { createRoute } from '@hono/zod-openapi';
import { auditedWrite } from '../../access/audited-write.js';
import type { DatabaseHandle } from '../../db/client.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { pageQuerySchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmResource } from '../farms/routes.js';
import { recordList } from '../record-resource.js';
import { listRecords } from '../record-routes.js';
import { accessEmailParams, accessEntrySchema, accessGrantSchema, accessOrganisationParams } from './schemas.js';
import { grantAccess, grantOrganisationAccess, isOwnAddress, listAccess, revokeAccess, revokeOrganisationAccess } from './store.js';
import { json, noContent } from '../../http/responses.js';

// Roles on a farm, listed at …/access under the tag of sharing.
const access = recordList({
  kind: 'access',
  plural: 'access',
  tags: ['Sharing'],
  said: ['role', 'roles'],
  page: 'FarmAccessPage',
  schema: accessEntrySchema,
  parent: farmResource,
});

const grantRoute = createRoute({
  method: 'put',
  path: access.listPath,
  operationId: 'grantAccessToFarm',
  tags: access.names.tags,
  summary: 'Give a person or an organisation a role on a farm, or change it (owners only)',
  description:
    'A person by `email`: an address nobody has signed up with is answered the same way, and its role waits for that sign-up (30 days). ' +
    'An organisation you are a member of by `organisation` (else 404), as advisor or researcher (owner is 422). ' +
    'Demoting the last owner is 409. Takes effect on the next request.',
  security: apiKeySecurity,
  request: { params: farmResource.id.params, body: { required: true, content: jsonContent(accessGrantSchema) } },
  responses: {
    200: { description: 'The entry.', content: jsonContent(accessEntrySchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'conflict', 'unprocessable-entity'),
  },
});

const revokeRoute = createRoute({
  method: 'delete',
  path: '/api/farms/{b_id_farm}/access/{email}',
  operationId: 'revokeAccessToFarm',
  tags: access.names.tags,
  summary: "Remove a user's role on a farm (owners only; anyone their own)",
  description: 'Removing the last owner is 409; an address without a role is 404. Takes effect on the next request.',
  security: apiKeySecurity,
  request: { params: accessEmailParams },
  responses: {
    204: { description: 'Removed.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'not-found', 'forbidden', 'conflict'),
  },
});

const revokeOrganisationRoute = createRoute({
  method: 'delete',
  path: '/api/farms/{b_id_farm}/access/organisations/{org_id}',
  operationId: 'revokeOrganisationAccessToFarm',
  tags: access.names.tags,
  summary: "Remove an organisation's role on a farm (owners only)",
  description: 'A farm not shared with the organisation is 404. Takes effect on the next request for every member.',
  security: apiKeySecurity,
  request: { params: accessOrganisationParams },
  responses: {
    204: { description: 'Removed.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden'),
  },
});

export function farmAccessRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  listRecords(app, db, access, {
    summary: 'List who has which role on a farm (owners only)',
    description: 'Ordered by when the role was granted. Other roles get 403; users without a role 404.',
    query: pageQuerySchema,
    action: 'oversee',
    errors: ['forbidden'],
    list: listAccess,
  });

  app.openapi(grantRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const { email, organisation, role } = c.req.valid('json');
    const principal = c.get('principal');
    const target = { kind: 'farm', id: b_id_farm, action: 'share' } as const;
    // The schema admits exactly one of email and organisation.
    const entry =
      organisation === undefined
        ? await auditedWrite(db, principal, target, (tx) => grantAccess(tx, b_id_farm, email ?? '', role), {
            action: 'grant',
            kind: 'access',
            id: (granted) => `${granted.email}:${granted.role}`,
          })
        : await auditedWrite(db, principal, target, (tx) => grantOrganisationAccess(tx, principal, b_id_farm, organisation, role), {
            action: 'grant',
            kind: 'organisation access',
            id: (granted) => `${granted.organisation}:${granted.role}`,
          });
    return json(c, entry, 200);
  });

  app.openapi(revokeRoute, async (c) => {
    const { b_id_farm, email } = c.req.valid('param');
    const principal = c.get('principal');
    // Anyone may drop their own role, whoever granted it: any role on the farm is enough.
    const action = (await isOwnAddress(db, principal, email)) ? 'leave' : 'share';
    await auditedWrite(db, principal, { kind: 'farm', id: b_id_farm, action }, (tx) => revokeAccess(tx, b_id_farm, email), {
      action: 'revoke',
      kind: 'access',
      id: email,
    });
    return noContent(c);
  });

  app.openapi(revokeOrganisationRoute, async (c) => {
    const { b_id_farm, org_id } = c.req.valid('param');
    const principal = c.get('principal');
    await auditedWrite(
      db,
      principal,
      { kind: 'farm', id: b_id_farm, action: 'share' },
      (tx) => revokeOrganisationAccess(tx, principal, b_id_farm, org_id),
      { action: 'revoke', kind: 'organisation access', id: org_id },
    );
    return noContent(c);
  });

  return app;
}
