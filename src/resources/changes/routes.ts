// HTTP for a farm's change feed: what changed since a cursor, for clients that keep a copy of the farm.
import { createRoute } from '@hono/zod-openapi';
import { authorizeWithRole, roleAllows } from '../../access/roles.js';
import type { DatabaseHandle } from '../../db/client.js';
import { apiKeySecurity, authenticatedErrors, errorResponses } from '../../http/openapi.js';
import { validationFailed } from '../../http/problem.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { json } from '../../http/responses.js';
import { farmIdParams } from '../farms/schemas.js';
import { encodeCursor } from './cursor.js';
import { changePageSchema, changesQuerySchema } from './schemas.js';
import { readChanges } from './store.js';

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}/changes',
  operationId: 'listChangesOfFarm',
  tags: ['Farms'],
  summary: 'What changed on a farm since a cursor (every role)',
  description:
    "Every create, update and delete of the farm's records, in commit order: fetch each created or updated record by its id " +
    "(a member, derogation or grazing intention: from the farm's list of them), remove the ids of a delete. " +
    'Follow `next` until `has_more` is false; ask again later with the last `next`. ' +
    'Entries are kept for a limited time: a cursor older than the oldest kept entry is 410 `cursor-expired`.',
  security: apiKeySecurity,
  request: { params: farmIdParams, query: changesQuerySchema },
  responses: {
    200: { description: 'The entries after the cursor, and the cursor to continue from.', content: jsonContent(changePageSchema) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'cursor-expired'),
  },
});

export function changeRoutes({ db }: DatabaseHandle) {
  return new ApiRoutes().openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const { after, limit } = c.req.valid('query');
    const { role } = await authorizeWithRole(db, c.get('principal'), 'farm', b_id_farm, 'read');
    if (after !== undefined && after.farmId !== b_id_farm) {
      throw validationFailed([{ field: 'after', message: "is a cursor of another farm's feed" }]);
    }
    const read = await readChanges(db, b_id_farm, after?.position, limit);
    // Numbered per farm, the positions up to the feed's end are every reader's to see: only one past it is made up.
    if (after !== undefined && after.position > read.last) {
      throw validationFailed([{ field: 'after', message: 'is past the end of this feed: send the `next` of an earlier answer' }]);
    }
    // Roles are listed to owners only (GET …/access), and so are their changes.
    const seesMembers = roleAllows(role, 'oversee');
    const data = read.entries
      .filter((entry) => seesMembers || entry.type !== 'member')
      .map(({ action, type, id, updated_at, removed }) => ({ action, type, id, updated_at, removed }));
    return json(c, { data, next: encodeCursor({ farmId: b_id_farm, position: read.next }), has_more: read.hasMore }, 200);
  });
}
