// HTTP for a farm's audit trail (owners only).
import { z } from '@hono/zod-openapi';
import { listAudit } from '../../access/audit.js';
import type { DatabaseHandle } from '../../db/client.js';
import { pageQuerySchema } from '../../http/pagination.js';
import { ApiRoutes } from '../../http/api-routes.js';
import { farmResource } from '../farms/routes.js';
import { recordList } from '../record-resource.js';
import { listRecords } from '../record-routes.js';

const auditEntrySchema = z
  .object({
    audit_id: z.string().openapi({ description: 'Audit entry identifier.' }),
    user_id: z.string().openapi({ description: 'The user who made the change.' }),
    key_id: z.string().nullable().openapi({ description: 'The API key used; null for a browser session.' }),
    action: z.enum(['create', 'update', 'delete', 'grant', 'revoke']).openapi({ description: 'What was done to the resource.' }),
    resource_type: z.string().openapi({
      description:
        'farm, field, cultivation, harvest, soil analysis, fertilizer, fertilizer application, organic certification, derogation, grazing intention, access, or organisation access.',
    }),
    resource_id: z.string().openapi({
      description:
        'Identifier of the resource (for access: the e-mail address, and the role granted; for organisation access: the organisation, and the role granted; for a derogation or a grazing intention: its year).',
    }),
    created_at: z.string().openapi({ format: 'date-time', description: 'When the change was made.' }),
  })
  .openapi('AuditEntry');

// The farm's audit trail, at …/audit under the tag of sharing.
const audit = recordList({
  kind: 'audit',
  plural: 'audit',
  tags: ['Sharing'],
  said: ['entry', 'entries'],
  schema: auditEntrySchema,
  parent: farmResource,
});

export function auditRoutes(database: DatabaseHandle) {
  const app = new ApiRoutes();
  listRecords(app, database.db, audit, {
    summary: 'The audit trail of a farm: who changed what, and when (owners only)',
    description: 'Oldest first. Entries stay when the resources they name are deleted; they hold identifiers, never deleted contents.',
    query: pageQuerySchema,
    action: 'oversee',
    errors: ['forbidden'],
    list: listAudit,
  });
  return app;
}
