// Small builders shared by the route modules.
import { z } from '@hono/zod-openapi';

export const jsonContent = <T>(schema: T) => ({ 'application/json': { schema } });

/** Path parameters made of one identifier. */
export const idParams = <K extends string>(name: K, description: string) =>
  z.object({ [name]: z.string().openapi({ param: { name, in: 'path' }, description }) } as { [P in K]: z.ZodString });

export const locationHeader = { Location: { schema: { type: 'string' as const }, description: 'Path of the new resource.' } };
