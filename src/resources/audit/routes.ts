// HTTP for a farm's audit trail (owners only).
import { createRoute, z } from '@hono/zod-openapi';
import { listAudit } from '../../access/audit.js';
import { authorize } from '../../access/roles.js';
import type { DatabaseHandle } from '../../db/client.js';
import { apiKeySecurity, authenticatedErrors, errorResponses } from '../../http/openapi.js';
import { envelope, envelopeSchema, pageQuerySchema } from '../../http/pagination.js';
import { jsonContent } from '../../http/route-helpers.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmIdParams } from '../farms/schemas.js';
import { json } from '../../http/responses.js';

const auditEntrySchema = z
  .object({
    audit_id: z.string().openapi({ description: 'Audit entry identifier.' }),
    user_id: z.string().openapi({ description: 'The user who made the change.' }),
    key_id: z.string().nullable().openapi({ description: 'The API key used; null for a browser session.' }),
    action: z.enum(['create', 'update', 'delete', 'grant', 'revoke']).openapi({ description: 'What was done to the resource.' }),
    resource_type: z.string().openapi({
      description:
        'farm, field, cultivation, harvest, soil analysis, fertilizer, fertilizer application, organic certification, derogation, grazing intention, or access.',
    }),
    resource_id: z.string().openapi({
      description:
        'Identifier of the resource (for access: the e-mail address, and the role granted; for a derogation or a grazing intention: its year).',
    }),
    created_at: z.string().openapi({ format: 'date-time', description: 'When the change was made.' }),
  })
  .openapi('AuditEntry');

const listRoute = createRoute({
  method: 'get',
  path: '/api/farms/{b_id_farm}/audit',
  operationId: 'listAuditOfFarm',
  tags: ['Sharing'],
  summary: 'The audit trail of a farm: who changed what, and when (owners only)',
  description: 'Oldest first. Entries stay when the resources they name are deleted; they hold identifiers, never deleted contents.',
  security: apiKeySecurity,
  request: { params: farmIdParams, query: pageQuerySchema },
  responses: {
    200: { description: 'One page of entries.', content: jsonContent(envelopeSchema(auditEntrySchema, 'AuditPage')) },
    ...errorResponses(...authenticatedErrors, 'validation-failed', 'not-found', 'forbidden'),
  },
});

export function auditRoutes(database: DatabaseHandle) {
  const db = database.db;
  const app = new ApiRoutes();
  app.openapi(listRoute, async (c) => {
    const { b_id_farm } = c.req.valid('param');
    const page = c.req.valid('query');
    await authorize(db, c.get('principal'), 'farm', b_id_farm, 'share');
    const { data, total } = await listAudit(db, b_id_farm, page);
    return json(c, envelope(data, page, total), 200);
  });
  return app;
}
