// created_at and updated_at as every record of the API carries them.
import { z } from '@hono/zod-openapi';

const EXAMPLE = '2025-03-01T10:00:00.000Z';

export const recordTimesShape = {
  created_at: z
    .string()
    .openapi({ format: 'date-time', description: 'When the record was created: RFC 3339, UTC, milliseconds.', example: EXAMPLE }),
  updated_at: z.string().openapi({
    format: 'date-time',
    description:
      'When the record last changed: RFC 3339, UTC, milliseconds. Equal to created_at until the first change; every change moves it on.',
    example: EXAMPLE,
  }),
};
