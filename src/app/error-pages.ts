// /errors/<code>: what the `type` URL of a problem answer leads to. A short page about the error code for
// a person (HTML), or its members as JSON for a program that asks for application/json. No key needed.
import { Hono, type Context } from 'hono';
import { accepts } from 'hono/accepts';
import { html } from 'hono/html';
import { errorGuides } from '../http/error-catalogue.js';
import { ApiError, errorCodes, type ErrorCode } from '../http/problem.js';

export const ERRORS_PATH = '/errors';

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(errorCodes, code);

/** The members a program reads about `code`. */
export const errorCodeDescription = (code: ErrorCode) => ({
  code,
  status: errorCodes[code].status,
  title: errorCodes[code].title,
  description: errorGuides[code].description,
});

/** Backquoted words in the descriptions are code: shown as such on the page. */
function withCode(text: string) {
  return text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
}

function page(code: ErrorCode) {
  const { status, title, description } = errorCodeDescription(code);
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${status} ${code} – Akker API</title>
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 40rem;
            margin: 3rem auto;
            padding: 0 1rem;
            color: #1d2b1f;
          }
          code {
            background: #eef3ea;
            padding: 0 0.2em;
          }
        </style>
      </head>
      <body>
        <h1>${status} ${title}</h1>
        <p>Error code <code>${code}</code></p>
        <p>${withCode(description)}</p>
        <p>
          Every error of the Akker API is an <code>application/problem+json</code> answer whose <code>type</code> leads here. Its
          <code>detail</code> says what was wrong with the request, and its <code>error_id</code> is the reference to quote in a report. The
          API reference is at <a href="/api/docs">/api/docs</a>.
        </p>
      </body>
    </html>`;
}

/** `respond` answers an error as problem+json, as every other error of the app is answered. */
export function errorPageRoutes(respond: (c: Context, error: ApiError) => Response) {
  const app = new Hono();
  app.get(`${ERRORS_PATH}/:code`, (c) => {
    const code = c.req.param('code');
    if (!isErrorCode(code)) return respond(c, new ApiError('not-found', `There is no error code ${code}.`));
    const headers = { 'cache-control': 'public, max-age=86400', vary: 'Accept' };
    if (accepts(c, { header: 'Accept', supports: ['text/html', 'application/json'], default: 'text/html' }) === 'application/json') {
      return c.json(errorCodeDescription(code), 200, headers);
    }
    return c.html(page(code), 200, headers);
  });
  app.all(`${ERRORS_PATH}/:code`, (c) =>
    respond(
      c,
      new ApiError('method-not-allowed', `${c.req.method} is not served at ${c.req.path}; use GET, HEAD.`, {
        headers: { allow: 'GET, HEAD' },
      }),
    ),
  );
  return app;
}
