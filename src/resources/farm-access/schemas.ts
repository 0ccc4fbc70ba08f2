// Sharing a farm: who has which role, people and organisations.
import { z } from '@hono/zod-openapi';
import { farmRoles } from '../../db/schema.js';

const roleSchema = z
  .enum(farmRoles)
  .openapi({ description: 'owner: everything, including access; advisor: read and write; researcher: read.' });

export const personEntrySchema = z
  .object({
    email: z.string().openapi({ description: 'E-mail address of the user with the role.', example: 'advisor@example.org' }),
    role: roleSchema,
  })
  .openapi('FarmAccessEntry');

export const organisationEntrySchema = z
  .object({
    organisation: z
      .string()
      .openapi({ description: 'Identifier of the organisation whose members have the role.', example: 'Vw3bqK0aTzG1nP7sXc2LdA' }),
    organisation_name: z.string().openapi({ description: 'Its name.', example: 'Akkerbouw Advies BV' }),
    role: roleSchema,
  })
  .openapi('FarmOrganisationAccessEntry');

export const accessEntrySchema = z.union([personEntrySchema, organisationEntrySchema]).openapi('FarmAccessListEntry', {
  description: 'A person’s role (email) or an organisation’s (organisation).',
});

export const accessGrantSchema = z
  .strictObject({
    email: z
      .email('must be an e-mail address')
      .trim()
      .max(254)
      .optional()
      .openapi({ description: 'E-mail address of the person (signed up or not yet).', example: 'advisor@example.org' }),
    organisation: z
      .string()
      .max(100)
      .optional()
      .openapi({ description: 'Identifier of an organisation you are a member of.', example: 'Vw3bqK0aTzG1nP7sXc2LdA' }),
    role: z
      .enum(farmRoles)
      .openapi({ description: 'The role to give: owner, advisor or researcher (an organisation: advisor or researcher).' }),
  })
  .refine((grant) => (grant.email === undefined) !== (grant.organisation === undefined), {
    message: 'give either email or organisation',
    path: ['email'],
  })
  .openapi('FarmAccessGrant', { description: 'Either `email` (a person) or `organisation`, and `role`.' });

export const accessEmailParams = z.object({
  b_id_farm: z.string().openapi({ param: { name: 'b_id_farm', in: 'path' }, description: 'Farm identifier.' }),
  email: z.string().openapi({ param: { name: 'email', in: 'path' }, description: 'E-mail address of the user whose access is removed.' }),
});

export const accessOrganisationParams = z.object({
  b_id_farm: z.string().openapi({ param: { name: 'b_id_farm', in: 'path' }, description: 'Farm identifier.' }),
  org_id: z
    .string()
    .openapi({ param: { name: 'org_id', in: 'path' }, description: 'Identifier of the organisation whose role is removed.' }),
});

export type AccessGrant = z.infer<typeof accessGrantSchema>;
export type AccessEntry = z.infer<typeof accessEntrySchema>;
