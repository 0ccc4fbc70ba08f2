// Reading a form post: size, type, origin and CSRF token checked before any field is used.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyFits } from '../../http/body-limit.js';
import { isCrossOriginChange } from '../../http/same-origin.js';
import { CSRF_FIELD, tokensMatch } from './csrf.js';
import { PageError } from './page-error.js';

// Our forms are a few short fields; anything larger is not one of them.
const MAX_FORM_BYTES = 64 * 1024;

export const formBodyLimit: MiddlewareHandler = async (c, next) => {
  if (!(await bodyFits(c, MAX_FORM_BYTES))) {
    throw new PageError(413, 'Form too large', 'The form sent was larger than any form of this site. Go back and try again.');
  }
  await next();
};

const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

const refused = () =>
  new PageError(
    403,
    'Form refused',
    'This form could not be accepted: it did not come from a page of this site, or the page was too old. Go back, reload the page and try again.',
  );

/** The text fields of the post, once it is known to come from one of our pages (its token) and no other origin. */
export async function readForm(c: Context, publicUrl: string, expectedToken: string | undefined): Promise<Record<string, string>> {
  if (isCrossOriginChange(c, publicUrl)) throw refused();
  if (!FORM_MEDIA_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new PageError(415, 'Form not understood', 'The form was not sent the way this site sends forms. Go back and try again.');
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(await c.req.parseBody())) if (typeof value === 'string') fields[name] = value;
  const token = fields[CSRF_FIELD];
  if (token === undefined || expectedToken === undefined || !tokensMatch(token, expectedToken)) throw refused();
  return fields;
}
