// The OpenAPI document's side of Idempotency-Key: every POST under /api that takes the header gets its
// parameter, its 409 and 422 codes and the Idempotent-Replayed and Idempotent-Body fields on its successful answers. Added to
// the built document in one place, so that no POST operation can be left without it.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { errorResponses } from '../http/openapi.js';
import { MAX_STORED_BODY_BYTES, WITHOUT_IDEMPOTENCY_KEY } from './idempotency.js';
import { IDEMPOTENCY_TTL_SECONDS } from '../idempotency/store.js';

type Document = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type Operation = NonNullable<NonNullable<Document['paths']>[string]['post']>;
type Responses = NonNullable<Operation['responses']>;

const keyParameter = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    `A key you choose for this request (1 to 255 visible ASCII characters; a UUID will do). Sent again with the same path and body ` +
    `within ${IDEMPOTENCY_TTL_SECONDS / 3600} h, the request is not run again: the stored answer of the first one is repeated (status, body, ` +
    `Location, ETag) with \`Idempotent-Replayed: true\`. The same key with another path or body is 422 idempotency-key-reused; while the ` +
    `first request is still being answered, 409 idempotency-in-progress. 5xx and 429 answers are not stored. A body over ` +
    `${MAX_STORED_BODY_BYTES / 1024 / 1024} MiB, or over your budget of stored bodies, is stored without its body: the retry then has the ` +
    'status, Location and ETag, no body, and `Idempotent-Body: omitted`. Keys are per user: all your API keys share them.',
  schema: {
    type: 'string' as const,
    minLength: 1,
    maxLength: 255,
    pattern: '^[\\x21-\\x7e]+$',
    example: '5f0c2a4e-8b1d-4c3e-9f6a-2d7b8e1c0a93',
  },
};

const replayedHeader = {
  'Idempotent-Replayed': {
    description: 'Present, and `true`, when this answer is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string' as const, enum: ['true'] },
  },
  'Idempotent-Body': {
    description: 'Present, and `omitted`, on a replayed answer whose body was not stored (over the budget): it has no body.',
    schema: { type: 'string' as const, enum: ['omitted'] },
  },
};

/** `document` with the Idempotency-Key rules on every POST operation under /api that takes the header. */
export function describeIdempotency(document: Document): Document {
  const refusals = errorResponses('idempotency-in-progress', 'idempotency-key-reused');
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const post = item.post;
    if (post === undefined || !path.startsWith('/api/') || path === WITHOUT_IDEMPOTENCY_KEY) continue;
    post.parameters = [...(post.parameters ?? []), keyParameter];
    const responses: Responses = post.responses ?? {};
    for (const status of ['409', '422'] as const) {
      const refusal = refusals[status];
      if (refusal !== undefined) mergeProblem(responses, status, refusal);
    }
    const malformed = responses['400'];
    if (malformed !== undefined && 'description' in malformed) malformed.description += ' Or: a malformed Idempotency-Key.';
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith('2') && 'description' in response) response.headers = { ...response.headers, ...replayedHeader };
    }
    post.responses = responses;
  }
  return document;
}

type Refusal = ReturnType<typeof errorResponses>[string];

/**
 * `refusal` as a built document holds it: errorResponses gives the zod schema a route declares, which the
 * document generator turns into a reference; added after that, it must be the reference itself.
 */
const asBuilt = ({ content, ...refusal }: Refusal) => ({
  ...refusal,
  content: { 'application/problem+json': { ...content['application/problem+json'], schema: { $ref: '#/components/schemas/Problem' } } },
});

/** Adds the problem answer `added` to the one of `status`, or makes it the response of `status` when there is none. */
function mergeProblem(responses: Responses, status: string, added: Refusal): void {
  const existing = responses[status];
  if (existing === undefined || !('description' in existing)) {
    responses[status] = asBuilt(added);
    return;
  }
  existing.description = `${existing.description} Or: ${added.description}`;
  const media = existing.content?.['application/problem+json'];
  if (media !== undefined) media.examples = { ...media.examples, ...added.content['application/problem+json'].examples };
}
