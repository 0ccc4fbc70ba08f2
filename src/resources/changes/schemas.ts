// The change feed of a farm on the wire.
import { z } from '@hono/zod-openapi';
import { DEFAULT_LIMIT, MAX_LIMIT, pageQuerySchema } from '../../http/pagination.js';
import { CURSOR_LENGTH } from './cursor.js';

export const changeTypes = [
  'farm',
  'member',
  'field',
  'cultivation',
  'harvest',
  'soil_analysis',
  'fertilizer',
  'fertilizer_application',
  'derogation',
  'grazing_intention',
  'organic_certification',
] as const;
export type ChangeType = (typeof changeTypes)[number];

export const NOT_A_CURSOR = 'is not a cursor of this change feed: send the `next` of an earlier answer';
const EXAMPLE_CURSOR = 'EFbYRk9i9VZ_PgSqQtfn19IqF2R04HplbmMf_T9hR5rL3-7HG3C87g';

export const changesQuerySchema = z.object({
  after: z
    .string()
    // Its seal is checked by the route, which has the server's key: this is only the shape of every cursor.
    .regex(/^[A-Za-z0-9_-]+$/, { message: NOT_A_CURSOR })
    .length(CURSOR_LENGTH, { message: NOT_A_CURSOR })
    .optional()
    .openapi({
      type: 'string',
      description: 'The `next` of an earlier answer of this feed: entries after it are listed. Left out: from the oldest entry kept.',
      example: EXAMPLE_CURSOR,
    }),
  limit: pageQuerySchema.shape.limit.openapi({
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `The most entries to read, 1–${MAX_LIMIT}.`,
    example: DEFAULT_LIMIT,
  }),
});

const idList = (type: string) =>
  z
    .array(z.string())
    .optional()
    .openapi({ description: `Identifiers of the ${type} removed.` });

const removedSchema = z
  .object({
    farm: idList('farm'),
    member: idList('members (e-mail addresses)'),
    field: idList('fields'),
    cultivation: idList('cultivations'),
    harvest: idList('harvests'),
    soil_analysis: idList('soil analyses'),
    fertilizer: idList('fertilizers'),
    fertilizer_application: idList('fertilizer applications'),
    derogation: idList('derogations (years)'),
    grazing_intention: idList('grazing intentions (years)'),
    organic_certification: idList('organic certifications'),
  })
  .openapi('ChangeTombstone', {
    description: 'Every record the delete removed, the deleted record itself included, by type; types with none are left out.',
    example: { field: ['Qm9Yp2Ag3sJb0u5X7vRk1c'], cultivation: ['AjHZxCCqi3cBeafoNPuJzA'], harvest: ['hm3JTh_cENycs_lfma1RbQ'] },
  });

export const changeSchema = z
  .object({
    action: z.enum(['create', 'update', 'delete']).openapi({ description: 'What happened to the record.', example: 'update' }),
    type: z.enum(changeTypes).openapi({
      description:
        'The kind of record. `member` is a role on the farm, named by e-mail address; it is listed to owners only, as the roles are. ' +
        "`derogation` and `grazing_intention` are the records of one year, read from the farm's list of them.",
      example: 'field',
    }),
    id: z.string().openapi({
      description:
        'Identifier of the record (b_id_farm, b_id, b_lu, b_id_harvesting, a_id, p_id, p_app_id or b_id_organic; a member: e-mail address; ' +
        'a derogation or grazing intention: its year, as four digits).',
      example: 'Qm9Yp2Ag3sJb0u5X7vRk1c',
    }),
    updated_at: z.string().openapi({
      format: 'date-time',
      description: "A create or update: the record's updated_at after it. A delete: when it was made. RFC 3339, UTC, milliseconds.",
      example: '2025-03-01T10:00:00.000Z',
    }),
    removed: removedSchema.nullable().openapi({ description: 'A delete: what it removed (see ChangeTombstone). Otherwise null.' }),
  })
  .openapi('Change');

export const changePageSchema = z
  .object({
    data: z.array(changeSchema).openapi({ description: 'Entries in commit order, oldest first; at most `limit`.' }),
    next: z.string().openapi({
      description: 'Cursor to send as `after` for the entries that follow; unchanged when there were none. Opaque: store it as it is.',
      example: EXAMPLE_CURSOR,
    }),
    has_more: z.boolean().openapi({ description: 'Whether more entries follow `next` already: ask again at once.', example: false }),
  })
  .openapi('ChangePage');

export type Change = z.infer<typeof changeSchema>;
