// Organisations, their members and their trail on the wire.
import { z } from '@hono/zod-openapi';
import { organisationRoles } from '../../db/schema.js';
import { pathId } from '../record-resource.js';
import { recordTimesShape } from '../record-times.js';
import { nameSchema } from '../value-schemas.js';

const roleSchema = z.enum(organisationRoles, 'must be owner, admin or member').openapi({
  description:
    'owner: everything, owners and deleting it included; admin: rename it, manage admins and members, read its trail; member: read it and act on its farms.',
});

export const organisationIdParam = pathId('org_id', 'Organisation identifier.');

export const organisationSchema = z
  .object({
    id: z.string().openapi({ description: 'Organisation identifier (opaque).', example: 'Vw3bqK0aTzG1nP7sXc2LdA' }),
    name: z.string().openapi({ description: 'Name of the organisation.', example: 'Akkerbouw Advies BV' }),
    role: roleSchema.openapi({ description: 'Your role in it.' }),
    ...recordTimesShape,
  })
  .openapi('Organisation');

export const organisationInputSchema = z
  .strictObject({ name: nameSchema('Name of the organisation.', 'Akkerbouw Advies BV') })
  .openapi('OrganisationInput');

export const memberSchema = z
  .object({
    email: z.string().openapi({ description: 'E-mail address of the member.', example: 'advisor@example.org' }),
    name: z.string().nullable().openapi({
      description:
        'Name of the member, once they have opened the organisation themselves; null until then (also while the address waits for its sign-up).',
    }),
    role: roleSchema,
    created_at: recordTimesShape.created_at.openapi({ description: 'When the member was added.' }),
  })
  .openapi('OrganisationMember');

export const memberGrantSchema = z
  .strictObject({
    email: z
      .email('must be an e-mail address')
      .trim()
      .max(254, 'must be at most 254 characters')
      .openapi({ description: 'E-mail address of the member.', example: 'advisor@example.org' }),
    role: roleSchema.openapi({ description: 'The role to give: owner, admin or member.' }),
  })
  .openapi('OrganisationMemberGrant');

export const memberEmailParams = organisationIdParam.params.extend({
  email: z.string().openapi({ param: { name: 'email', in: 'path' }, description: 'E-mail address of the member removed.' }),
});

export const organisationAuditEntrySchema = z
  .object({
    audit_id: z.string().openapi({ description: 'Audit entry identifier.' }),
    user_id: z.string().openapi({ description: 'The user who made the change.' }),
    key_id: z.string().nullable().openapi({ description: 'The API key used; null for a browser session.' }),
    action: z.enum(['create', 'update', 'grant', 'revoke']).openapi({ description: 'What was done.' }),
    resource_type: z.enum(['organisation', 'member', 'farm']).openapi({ description: 'What it was done to.' }),
    resource_id: z.string().openapi({
      description: 'The organisation’s id; a member’s e-mail address and role (address:role); a farm’s id and role (b_id_farm:role).',
    }),
    created_at: z.string().openapi({ format: 'date-time', description: 'When the change was made.' }),
  })
  .openapi('OrganisationAuditEntry');

export type Organisation = z.infer<typeof organisationSchema>;
export type Member = z.infer<typeof memberSchema>;
