// The same-origin rule of requests a browser sends with our cookie: a change (any method but GET and
// HEAD) must name our own origin. Browsers name it on every such request (Origin; Referer where a
// privacy setting drops Origin); programs name none and carry no cookie another site could borrow.
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

/** A request naming an origin other than ours. */
export function namesForeignOrigin(c: Context, publicUrl: string): boolean {
  const origin = namedOrigin(c);
  return origin !== undefined && !isOurOrigin(c, publicUrl, origin);
}

/** A request naming our own origin (what every form post of our pages does). */
export function comesFromOurOrigin(c: Context, publicUrl: string): boolean {
  const origin = namedOrigin(c);
  return origin !== undefined && isOurOrigin(c, publicUrl, origin);
}
