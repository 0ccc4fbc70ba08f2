// The same-origin rule of every request our cookie authenticates (the API's session, /auth/sign-out, the
// pages' form posts): a change, any method but GET and HEAD, that names another origin is refused.
import type { Context } from 'hono';

export const isSafeMethod = (method: string): boolean => method === 'GET' || method === 'HEAD';

function refererOrigin(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

const isOurOrigin = (c: Context, publicUrl: string, origin: string) =>
  origin === new URL(publicUrl).origin || origin === new URL(c.req.url).origin;

/** The origin the request names: Origin, else the origin of Referer. */
const namedOrigin = (c: Context): string | undefined => c.req.header('origin') ?? refererOrigin(c.req.header('referer'));

/** A change naming an origin other than ours ("null", a browser's hidden origin, included). */
export function isCrossOriginChange(c: Context, publicUrl: string): boolean {
  if (isSafeMethod(c.req.method)) return false;
  const origin = namedOrigin(c);
  // Naming none passes: browsers name one on every change, so only a program holding its own cookie names none.
  return origin !== undefined && !isOurOrigin(c, publicUrl, origin);
}
