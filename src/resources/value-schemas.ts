// Values that several records have: a name, and a number the API reports that may be unknown.
import { z } from '@hono/zod-openapi';

/** The name of a farm or a field: trimmed, not empty, and at most 200 characters. */
export const nameSchema = (description: string, example: string) =>
  z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').openapi({ description, example });

/** A number in a response, null where it is not known. */
export const nullableNumber = (description: string) => z.number().nullable().openapi({ description });
