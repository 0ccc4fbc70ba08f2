// Header fields that middleware adds to whatever answer a request ends with (RateLimit, Vary), kept in
// a plain object and written once, at the end. Setting them through Hono's `c.header` would build a
// fetch `Headers` object and take the response off @hono/node-server's fast path: several µs a request.
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv, Check } from './context.js';

export function addAnswerHeader(c: Context<AppEnv>, name: string, value: string): void {
  const fields = c.get('answerHeaders');
  if (fields) fields[name] = value;
  else c.set('answerHeaders', { [name]: value });
}

/**
 * The outermost middleware of the API. Served by Node, the fields go straight onto the Node response,
 * which merges them with the answer's own; answered in-process (`app.request`), onto the Response.
 */
export const writeAnswerHeaders: Check = async (c, next) => {
  await next();
  const fields = c.get('answerHeaders');
  if (!fields) return;
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && !outgoing.headersSent) {
    for (const name in fields) outgoing.setHeader(name, fields[name]!);
  } else {
    for (const name in fields) c.res.headers.set(name, fields[name]!);
  }
};
