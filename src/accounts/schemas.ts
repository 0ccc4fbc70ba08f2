// Accounts and API keys on the wire.
import { z } from '@hono/zod-openapi';
import { keyAccesses } from '../core/principal.js';
import { isBlankPassword, isCommonPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords.js';

const email = z
  .email('must be an e-mail address')
  .trim()
  .max(254, 'must be at most 254 characters')
  .openapi({ description: 'E-mail address of the account.', example: 'grower@example.org' });

const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((value) => !isBlankPassword(value), 'must not be only spaces')
  .refine((value) => !isCommonPassword(value), 'is one of the most common passwords, which are guessed first: choose another')
  .openapi({
    description: `At least ${PASSWORD_MIN_LENGTH} characters, not only spaces, and not one of the most common passwords.`,
    example: 'correct horse battery staple',
  });

export const signUpSchema = z
  .strictObject({
    email,
    password,
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .openapi({ description: 'Name shown on the account page.', example: 'Jan de Boer' }),
  })
  .openapi('SignUp');

export const signInSchema = z
  .strictObject({
    email,
    password: z
      .string()
      .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
      .openapi({ description: 'The password of the account.' }),
  })
  .openapi('SignIn');

export const changePasswordSchema = z
  .strictObject({
    current_password: z
      .string()
      .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
      .openapi({ description: 'The password of the account now.' }),
    new_password: password,
  })
  .openapi('ChangePassword');

const endedCount = (description: string) => z.number().int().nonnegative().openapi({ description, example: 2 });

export const passwordChangedSchema = z
  .object({
    other_sessions_ended: endedCount(
      'How many other sessions of the account were ended (signed out). This client goes on under the new session cookie set.',
    ),
  })
  .openapi('PasswordChanged');

export const signedOutEverywhereSchema = z
  .object({ sessions_ended: endedCount('How many sessions of the account were ended, this one included.') })
  .openapi('SignedOutEverywhere');

export const userSchema = z
  .object({
    user_id: z.string().openapi({ description: 'User identifier.' }),
    email: z.string().openapi({ description: 'E-mail address of the account.' }),
    name: z.string().openapi({ description: 'Name shown on the account page.' }),
  })
  .openapi('User');

/** The most farms one key may be limited to. */
export const MAX_KEY_FARMS = 100;

const keyAccess = z.enum(keyAccesses, 'must be read or write');

export const apiKeyCreateSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .openapi({ description: 'A name to tell the key from your others by.', example: 'ci' }),
    expires_at: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z' })
      .refine((value) => Date.parse(value) > Date.now(), 'must be in the future')
      .nullable()
      .optional()
      .openapi({ description: 'When the key stops working; none when left out.', example: '2027-12-31T23:59:59Z' }),
    access: keyAccess
      .optional()
      .openapi({ description: '`read`: every read and every calculation, no other change; `write` (the default): all you may do.' }),
    farms: z
      .array(z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'))
      .min(1, 'must name at least one farm')
      .max(MAX_KEY_FARMS, `must name at most ${MAX_KEY_FARMS} farms`)
      .refine((farms) => new Set(farms).size === farms.length, 'must not name a farm twice')
      .optional()
      .openapi({
        description: `The only farms the key reaches (1–${MAX_KEY_FARMS}), each one you have a role on now; every farm you reach when left out.`,
        example: ['3sJb0u5X7vRk1cQm9Yp2Ag'],
      }),
  })
  .openapi('ApiKeyCreate', { description: 'What a key may do and where is fixed at its creation: to change it, create another key.' });

export const apiKeySchema = z
  .object({
    id: z.string().openapi({ description: 'Key identifier, used to revoke it.' }),
    prefix: z.string().openapi({ description: 'The first 12 characters of the raw key.', example: 'akk_Xq3v9LmB' }),
    name: z.string().openapi({ description: 'The name given to the key.' }),
    created_at: z.string().openapi({ format: 'date-time', description: 'When the key was created.' }),
    last_used_at: z.string().nullable().openapi({ format: 'date-time', description: 'Accurate to the minute; null when never used.' }),
    expires_at: z
      .string()
      .nullable()
      .openapi({ format: 'date-time', description: 'When the key stops working; null when it does not expire.' }),
    access: keyAccess.openapi({ description: '`read`: reads and calculations only; `write`: all you may do.' }),
    farms: z
      .array(z.string())
      .nullable()
      .openapi({ description: 'The only farms the key reaches; null: every farm you reach. Never more than your own roles.' }),
  })
  .openapi('ApiKey');

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().openapi({ description: 'The raw key. Shown this once only: store it now.' }) })
  .openapi('CreatedApiKey');

export const keyIdParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, description: 'Key identifier.' }),
});
