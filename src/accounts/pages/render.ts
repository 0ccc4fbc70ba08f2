// Every HTML page leaves through here: doctype, and the headers that keep it
// from being framed, sniffed, cached or made to run anything but our own files.
import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  // Pages show personal data and one-time secrets: never from a cache, never on Back.
  'cache-control': 'no-store',
};

export async function renderPage(c: Context, status: ContentfulStatusCode, page: JSX.Element): Promise<Response> {
  // A component tree renders to a string, or to a promise of one when a component is async.
  const html = await (await page).toString();
  return c.html(`<!doctype html>${html}`, status, PAGE_HEADERS);
}
