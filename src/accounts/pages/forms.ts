// The fields of the sign-up, sign-in, password and new-key forms, with messages written for people.
import { z } from 'zod';
import { isBlankPassword, isCommonPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords.js';

/** Messages by field name; only fields with a problem have one. */
export type FieldErrors = Partial<Record<string, string>>;

const email = z
  .string()
  .trim()
  .min(1, 'Enter your e-mail address.')
  .max(254, 'Use an e-mail address of at most 254 characters.')
  .pipe(z.email('Enter an e-mail address such as name@example.org.'));

/** A password being chosen, on sign-up or a change. */
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use a password of at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Use a password of at most ${PASSWORD_MAX_LENGTH} characters.`)
  .refine((value) => !isBlankPassword(value), 'Use a password that is not only spaces.')
  .refine((value) => !isCommonPassword(value), 'This is one of the most common passwords, which are guessed first: choose another.');

/** The password of the account, as it is now. */
const currentPassword = (empty: string) =>
  z.string().min(1, empty).max(PASSWORD_MAX_LENGTH, `A password has at most ${PASSWORD_MAX_LENGTH} characters.`);

export const signUpForm = z.object({
  name: z.string().trim().min(1, 'Enter your name.').max(200, 'Use a name of at most 200 characters.'),
  email,
  password: newPassword,
});

export const signInForm = z.object({ email, password: currentPassword('Enter your password.') });

export const changePasswordForm = z.object({
  current_password: currentPassword('Enter your current password.'),
  new_password: newPassword,
});

export const newKeyForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the key a name, so that you can tell it apart later.')
    .max(100, 'Use a name of at most 100 characters.'),
});

type FormResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Parses form fields (a field left out counts as empty); the first problem of each field is the one shown. */
export function parseForm<S extends z.ZodObject>(schema: S, fields: Record<string, string>): FormResult<z.infer<S>> {
  const parsed = schema.safeParse(Object.fromEntries(Object.keys(schema.shape).map((name) => [name, fields[name] ?? ''])));
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
