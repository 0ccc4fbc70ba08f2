// Sharing a farm: who has which role.
import { z } from '@hono/zod-openapi';
import { farmRoles } from '../../db/schema.js';

export const accessEntrySchema = z
  .object({
    email: z.string().openapi({ description: 'E-mail address of the user with the role.', example: 'advisor@example.org' }),
    role: z.enum(farmRoles).openapi({ description: 'owner: everything, including access; advisor: read and write; researcher: read.' }),
  })
  .openapi('FarmAccessEntry');

export const accessGrantSchema = z
  .strictObject({
    email: z
      .email('must be an e-mail address')
      .trim()
      .max(254)
      .openapi({ description: 'E-mail address of a signed-up user.', example: 'advisor@example.org' }),
    role: z.enum(farmRoles).openapi({ description: 'The role to give: owner, advisor or researcher.' }),
  })
  .openapi('FarmAccessGrant');

export const accessEmailParams = z.object({
  b_id_farm: z.string().openapi({ param: { name: 'b_id_farm', in: 'path' }, description: 'Farm identifier.' }),
  email: z.string().openapi({ param: { name: 'email', in: 'path' }, description: 'E-mail address of the user whose access is removed.' }),
});

export type AccessGrant = z.infer<typeof accessGrantSchema>;
export type AccessEntry = z.infer<typeof accessEntrySchema>;
