// HTTP for organisations: create and list yours; read, rename and delete one; its members and its trail.
import { createRoute } from '@hono/zod-openapi';
import { authorizeInOrganisation, organisationWrite } from '../../access/organisation-roles.js';
import { listOrganisationAudit } from '../../access/organisation-audit.js';
import type { DatabaseHandle } from '../../db/client.js';
import {
  etagHeader,
  ifMatch,
  ifMatchParameter,
  ifNoneMatchParameter,
  notModifiedResponse,
  readResponse,
  recordResponse,
} from '../../http/etag.js';
import { apiKeySecurity, authenticatedErrors, bodyCheckErrors, bodyErrors, errorResponses } from '../../http/openapi.js';
import { envelope, pageQuerySchema, pageResponses } from '../../http/pagination.js';
import { jsonContent, locationHeader } from '../../http/route-helpers.js';
import { json, noContent } from '../../http/responses.js';
import { respondWithin } from '../../http/write-response.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { membersOf, openOrganisation, setMember, takeOutMember } from './actions.js';
import {
  memberEmailParams,
  memberGrantSchema,
  memberSchema,
  organisationAuditEntrySchema,
  organisationIdParam,
  organisationInputSchema,
  organisationSchema,
  type Organisation,
} from './schemas.js';
import { createOrganisation, deleteOrganisation, listOrganisations, renameOrganisation } from './store.js';

const tags = ['Organisations'];
const LIST_PATH = '/api/organisations';
const PATH = '/api/organisations/{org_id}';
const MEMBERS_PATH = `${PATH}/members`;
const params = organisationIdParam.params;

const listRoute = createRoute({
  method: 'get',
  path: LIST_PATH,
  operationId: 'listOrganisations',
  tags,
  summary: 'List the organisations you are a member of, with your role in each',
  description: 'Ordered by creation time ascending, then identifier.',
  security: apiKeySecurity,
  request: { query: pageQuerySchema },
  responses: pageResponses('One page of organisations.', organisationSchema, 'OrganisationPage'),
});

const createRouteSpec = createRoute({
  method: 'post',
  path: LIST_PATH,
  operationId: 'createOrganisation',
  tags,
  summary: 'Create an organisation (you become its owner)',
  description:
    'A user may be a member of at most 100 organisations: beyond that 409. A key that is read-only or limited to some farms may not create one (403).',
  security: apiKeySecurity,
  request: { body: { required: true, content: jsonContent(organisationInputSchema) } },
  responses: {
    201: { description: 'The organisation.', headers: { ...locationHeader, ...etagHeader }, content: jsonContent(organisationSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'forbidden', 'conflict'),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: PATH,
  operationId: 'getOrganisation',
  tags,
  summary: 'Get an organisation (members)',
  description: 'Anyone not a member gets 404, as for an organisation that does not exist.',
  security: apiKeySecurity,
  request: { params },
  parameters: [ifNoneMatchParameter],
  responses: {
    200: { description: 'The organisation.', headers: etagHeader, content: jsonContent(organisationSchema) },
    ...notModifiedResponse,
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found'),
  },
});

const renameRoute = createRoute({
  method: 'patch',
  path: PATH,
  operationId: 'updateOrganisation',
  tags,
  summary: 'Rename an organisation (owners and admins)',
  security: apiKeySecurity,
  request: { params, body: { required: true, content: jsonContent(organisationInputSchema) } },
  parameters: [ifMatchParameter],
  responses: {
    200: { description: 'The organisation after the change.', headers: etagHeader, content: jsonContent(organisationSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'precondition-failed'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: PATH,
  operationId: 'deleteOrganisation',
  tags,
  summary: 'Delete an organisation (owners)',
  description:
    'Removes its memberships and its roles on farms, never a farm; each farm’s trail records the role ended. A repeated delete answers 404.',
  security: apiKeySecurity,
  request: { params },
  parameters: [ifMatchParameter],
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'precondition-failed'),
  },
});

const listMembersRoute = createRoute({
  method: 'get',
  path: MEMBERS_PATH,
  operationId: 'listOrganisationMembers',
  tags,
  summary: 'List the members of an organisation (members)',
  description: 'In the order they were added, addresses still waiting for their sign-up among them.',
  security: apiKeySecurity,
  request: { params, query: pageQuerySchema },
  responses: pageResponses('One page of members.', memberSchema, 'OrganisationMemberPage', 'not-found'),
});

const putMemberRoute = createRoute({
  method: 'put',
  path: MEMBERS_PATH,
  operationId: 'putOrganisationMember',
  tags,
  summary: 'Add a member or change a member’s role (admins for admins and members, owners for owners)',
  description:
    'An address nobody has signed up with is answered the same way and becomes a member at its sign-up (within 30 days). ' +
    'Demoting the last owner is 409; so is a member past the limits (1,000 members an organisation, 100 organisations a user).',
  security: apiKeySecurity,
  request: { params, body: { required: true, content: jsonContent(memberGrantSchema) } },
  responses: {
    200: { description: 'The entry.', content: jsonContent(memberSchema) },
    ...errorResponses(...authenticatedErrors, ...bodyErrors, 'not-found', 'forbidden', 'conflict'),
  },
});

const removeMemberRoute = createRoute({
  method: 'delete',
  path: `${MEMBERS_PATH}/{email}`,
  operationId: 'removeOrganisationMember',
  tags,
  summary: 'Remove a member, or leave (any member may remove themselves)',
  description: 'Removing the last owner is 409; an address that is not a member is 404. Takes effect on the next request.',
  security: apiKeySecurity,
  request: { params: memberEmailParams },
  responses: {
    204: { description: 'Removed.' },
    ...errorResponses(...authenticatedErrors, ...bodyCheckErrors, 'validation-failed', 'not-found', 'forbidden', 'conflict'),
  },
});

const auditRoute = createRoute({
  method: 'get',
  path: `${PATH}/audit`,
  operationId: 'listOrganisationAudit',
  tags,
  summary: 'The trail of an organisation: membership changes and sharing (owners and admins)',
  description: 'Oldest first.',
  security: apiKeySecurity,
  request: { params, query: pageQuerySchema },
  responses: pageResponses('One page of entries.', organisationAuditEntrySchema, 'OrganisationAuditPage', 'not-found', 'forbidden'),
});

export function organisationRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();

  app.openapi(listRoute, async (c) => {
    const page = c.req.valid('query');
    const { data, total } = await listOrganisations(db, c.get('principal').userId, page);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(createRouteSpec, async (c) => {
    const { name } = c.req.valid('json');
    const principal = c.get('principal');
    const respond = respondWithin(c, (organisation: Organisation) =>
      recordResponse(c, organisation, 201, { location: `${LIST_PATH}/${organisation.id}` }),
    );
    return db.transaction(async (tx) => respond(tx, await createOrganisation(tx, principal, name)));
  });

  app.openapi(getRoute, async (c) => {
    const { org_id } = c.req.valid('param');
    return readResponse(c, await openOrganisation(db, c.get('principal'), org_id));
  });

  app.openapi(renameRoute, async (c) => {
    const { org_id } = c.req.valid('param');
    const { name } = c.req.valid('json');
    const principal = c.get('principal');
    const precondition = ifMatch(c);
    const organisation = await organisationWrite(db, principal, org_id, 'admin', 'rename it', (tx) =>
      renameOrganisation(tx, principal, org_id, name, precondition),
    );
    return recordResponse(c, organisation, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { org_id } = c.req.valid('param');
    const principal = c.get('principal');
    const precondition = ifMatch(c);
    await organisationWrite(db, principal, org_id, 'owner', 'delete it', (tx) => deleteOrganisation(tx, principal, org_id, precondition));
    return noContent(c);
  });

  app.openapi(listMembersRoute, async (c) => {
    const { org_id } = c.req.valid('param');
    const page = c.req.valid('query');
    const { data, total } = await membersOf(db, c.get('principal'), org_id, page);
    return json(c, envelope(data, page, total), 200);
  });

  app.openapi(putMemberRoute, async (c) => {
    const { org_id } = c.req.valid('param');
    const { email, role } = c.req.valid('json');
    return json(c, await setMember(db, c.get('principal'), org_id, email, role), 200);
  });

  app.openapi(removeMemberRoute, async (c) => {
    const { org_id, email } = c.req.valid('param');
    await takeOutMember(db, c.get('principal'), org_id, email);
    return noContent(c);
  });

  app.openapi(auditRoute, async (c) => {
    const { org_id } = c.req.valid('param');
    const page = c.req.valid('query');
    await authorizeInOrganisation(db, c.get('principal'), org_id, 'admin', 'read its trail');
    const { data, total } = await listOrganisationAudit(db, org_id, page);
    return json(c, envelope(data, page, total), 200);
  });

  return app;
}
