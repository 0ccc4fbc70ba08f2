// Header fields that middleware adds to whatever answer a request ends with (RateLimit, Cache-Control), kept in
// a plain list and written once, at the end. Setting them through Hono's `c.header` would build a
// fetch `Headers` object and take the response off @hono/node-server's fast path: several µs a request.
// A list rather than an object keyed by name: an object grown under ever-different keys takes V8's
// slower paths for its shape, where a list is plain pushes.
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv, Check } from './context.js';

/** Name, value, name, value…, written in this order: a name added again ends with its last value. */
export type AnswerHeaders = string[];

export function addAnswerHeader(c: Context<AppEnv>, name: string, value: string): void {
  const fields = c.get('answerHeaders');
  if (fields) fields.push(name, value);
  else c.set('answerHeaders', [name, value]);
}

/**
 * The outermost middleware of the API. Served by Node, the fields go straight onto the Node response,
 * which merges them with the answer's own (a field the answer has itself keeps the answer's value);
 * answered in-process (`app.request`), onto the Response, by the same rule.
 */
export const writeAnswerHeaders: Check = async (c, next) => {
  await next();
  const fields = c.get('answerHeaders');
  if (!fields) return;
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && !outgoing.headersSent) {
    for (let i = 0; i < fields.length; i += 2) outgoing.setHeader(fields[i]!, fields[i + 1]!);
  } else {
    const own = new Set(c.res.headers.keys());
    for (let i = 0; i < fields.length; i += 2) if (!own.has(fields[i]!)) c.res.headers.set(fields[i]!, fields[i + 1]!);
  }
};
